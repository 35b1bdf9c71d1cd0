package serve

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/report"
)

// DefaultName is the file name positions cite when the query names none.
const DefaultName = "program.conc"

// apiError is one error of a 400 (or 413, 503) answer: a static error has
// its position; the others only a message.
type apiError struct {
	Pos     string `json:"pos,omitempty"` // file:line:col
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

// writeErrors answers {"errors": [...]} with status.
func writeErrors(w http.ResponseWriter, status int, errs ...apiError) {
	writeJSON(w, status, struct {
		Errors []apiError `json:"errors"`
	}{errs})
}

// query reads the check parameters of docs/spec.md §4, conc serve from the URL.
func (s *server) query(r *http.Request) (Query, error) {
	v := r.URL.Query()
	if err := knownParams(v, "name", "engine", "lock-edges", "ignore-sync", "timeout"); err != nil {
		return Query{}, err
	}
	q := Query{Name: v.Get("name"), Engine: v.Get("engine"), Timeout: s.cfg.MaxTimeout}
	if q.Name == "" {
		q.Name = DefaultName
	}
	if q.Engine == "" {
		q.Engine = "auto"
	}
	for _, f := range []struct {
		name string
		to   *bool
	}{{"lock-edges", &q.LockEdges}, {"ignore-sync", &q.IgnoreSync}} {
		if s := v.Get(f.name); s != "" {
			b, err := strconv.ParseBool(s)
			if err != nil {
				return q, fmt.Errorf("%s %q: want true or false", f.name, s)
			}
			*f.to = b
		}
	}
	if t := v.Get("timeout"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			return q, fmt.Errorf("timeout %q: want a positive duration such as 500ms or 5s", t)
		}
		// The server's limit holds whatever is asked: a classroom shares it.
		q.Timeout = min(d, s.cfg.MaxTimeout)
	}
	return q, nil
}

// knownParams refuses a query parameter the API does not read, as the
// CLI refuses an unknown flag: a misspelt lock_edges=true would otherwise
// answer, silently, the check without it.
func knownParams(v url.Values, known ...string) error {
	for name := range v {
		if !slices.Contains(known, name) {
			return fmt.Errorf("unknown query parameter %q: want %s", name, strings.Join(known, ", "))
		}
	}
	return nil
}

// request reads a check request's body and query, answering the error
// itself when either is bad.
func (s *server) request(w http.ResponseWriter, r *http.Request) ([]byte, Query, bool) {
	q, err := s.query(r)
	if err != nil {
		writeErrors(w, http.StatusBadRequest, apiError{Message: err.Error()})
		return nil, q, false
	}
	src, ok := s.body(w, r)
	return src, q, ok
}

// decide runs the check of src in a slot, or remembers its answer (then
// without waiting for a slot); a nil report means the error has been
// answered.
func (s *server) decide(w http.ResponseWriter, r *http.Request, src []byte, q Query) *report.Report {
	key := keyOf(src, q)
	if rep, ok := s.answers.get(key); ok {
		return rep
	}
	release, q := s.takeCheckSlot(w, r, src, q)
	if release == nil {
		return nil
	}
	defer release()
	rep, err := s.cfg.Check(r.Context(), src, q)
	if err != nil {
		answerError(w, err)
		return nil
	}
	s.answers.put(key, rep, rep.Verdict != "unknown")
	return rep
}

// check is POST /api/check: conc check --format json of the body.
func (s *server) check(w http.ResponseWriter, r *http.Request) {
	src, q, ok := s.request(w, r)
	if !ok {
		return
	}
	if rep := s.decide(w, r, src, q); rep != nil {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		report.WriteJSON(w, rep) // the client may have gone; nothing to tell it
	}
}

// explain is POST /api/explain: the engine --engine picks for the body,
// why, and each thread's profiles (conc profiles); remembered as decide's
// answers are.
func (s *server) explain(w http.ResponseWriter, r *http.Request) {
	src, q, ok := s.request(w, r)
	if !ok {
		return
	}
	key := keyOf(src, q)
	if ex, ok := s.explains.get(key); ok {
		writeJSON(w, http.StatusOK, ex)
		return
	}
	release, q := s.takeCheckSlot(w, r, src, q)
	if release == nil {
		return
	}
	defer release()
	ex, err := s.cfg.Explain(r.Context(), src, q)
	if err != nil {
		answerError(w, err)
		return
	}
	s.explains.put(key, ex, !ex.Cut)
	writeJSON(w, http.StatusOK, ex)
}

// answerError answers a Checker's or Explainer's error: static errors and
// usage errors are the request's (400), others the server's (500).
func answerError(w http.ResponseWriter, err error) {
	var list lang.ErrorList
	var usage *UsageError
	switch {
	case errors.As(err, &list):
		writeErrors(w, http.StatusBadRequest, staticErrors(list)...)
	case errors.As(err, &usage):
		writeErrors(w, http.StatusBadRequest, apiError{Message: usage.Msg})
	default:
		writeErrors(w, http.StatusInternalServerError, apiError{Message: err.Error()})
	}
}

// staticErrors spells each static error with its position.
func staticErrors(list lang.ErrorList) []apiError {
	out := make([]apiError, 0, len(list))
	for _, e := range list {
		a := apiError{Message: e.Msg}
		if e.Pos.IsValid() {
			a.Pos, a.Line, a.Col = e.Pos.String(), int(e.Pos.Line), int(e.Pos.Col)
		}
		out = append(out, a)
	}
	return out
}

// byteCount spells a size limit.
func byteCount(n int64) string {
	if n%1024 == 0 {
		return fmt.Sprintf("%d KiB", n/1024)
	}
	return fmt.Sprintf("%d bytes", n)
}
