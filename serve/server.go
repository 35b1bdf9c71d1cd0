package serve

import (
	"embed"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"time"

	"github.com/conc-dev/conc/report"
)

//go:embed static
var static embed.FS

// server is the playground's handler state.
type server struct {
	cfg   Config
	slots *slots
	// small is the slot kept for small inputs (Config.SmallBody), so that
	// a class's light checks are answered while long ones fill slots.
	small    *slots
	answers  *answers[*report.Report]
	explains *answers[*Explanation]
}

// New is the playground's handler: the page at /, the API under /api/
// (docs/spec.md §4, conc serve). cfg.Check and cfg.Explain must be set.
func New(cfg Config) http.Handler {
	cfg = cfg.withDefaults()
	s := &server{cfg: cfg, slots: newSlots(cfg.MaxChecks), small: newSlots(1),
		answers: newAnswers[*report.Report](cfg.Remember), explains: newAnswers[*Explanation](cfg.Remember)}
	mux := http.NewServeMux()
	page, _ := fs.Sub(static, "static")
	mux.Handle("GET /", http.FileServerFS(page))
	mux.HandleFunc("GET /api/examples", s.examples)
	mux.HandleFunc("POST /api/check", s.check)
	postOnly(mux, "/api/check", "/api/explain", "/api/timeline")
	mux.HandleFunc("POST /api/explain", s.explain)
	mux.HandleFunc("POST /api/timeline", s.timeline)
	mux.HandleFunc("GET /api/lab", s.lab)
	mux.HandleFunc("GET /api/lab/families", s.labFamilies)
	return securityHeaders(sameOrigin(newHostPolicy(cfg.Addr), mux))
}

// securityHeaders keeps the page from being framed by other sites and the
// browser from guessing types. (No script policy is set; the witness page
// of POST /api/timeline, report/html's, carries no script of its own.)
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Security-Policy", "frame-ancestors 'self'")
		h.ServeHTTP(w, r)
	})
}

// body reads the request body up to MaxBody; over it, the error says so and
// the status is 413.
func (s *server) body(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeErrors(w, http.StatusRequestEntityTooLarge, apiError{Message: "the program is larger than the limit of " +
			byteCount(s.cfg.MaxBody)})
		return nil, false
	case err != nil:
		writeErrors(w, http.StatusBadRequest, apiError{Message: "cannot read the body: " + err.Error()})
		return nil, false
	}
	return b, true
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v) // the client may have gone; nothing to tell it
}

// takeSlot takes a check slot for r, or answers 503 when none freed
// within QueueWait; the caller releases a slot taken.
func (s *server) takeSlot(w http.ResponseWriter, r *http.Request) bool {
	if s.slots.acquire(r.Context(), s.cfg.QueueWait) {
		return true
	}
	busy(w, s.cfg.QueueWait)
	return false
}

// takeCheckSlot takes a slot for the check of src: a shared one, or for a
// small input (at most SmallBody bytes) the one kept for small inputs,
// whichever frees first. On that one the check's time limit is cut to
// SmallTimeout, so that the next small input waits little. It answers 503
// itself when none freed within QueueWait (release is nil then).
func (s *server) takeCheckSlot(w http.ResponseWriter, r *http.Request, src []byte, q Query) (func(), Query) {
	var small *slots
	if int64(len(src)) <= s.cfg.SmallBody {
		small = s.small
	}
	got := acquireEither(r.Context(), s.cfg.QueueWait, s.slots, small)
	if got == nil {
		busy(w, s.cfg.QueueWait)
		return nil, q
	}
	if got == s.small {
		q.Timeout = min(q.Timeout, s.cfg.SmallTimeout)
	}
	return got.release, q
}

// busy answers 503: no slot freed within wait.
func busy(w http.ResponseWriter, wait time.Duration) {
	w.Header().Set("Retry-After", "1")
	writeErrors(w, http.StatusServiceUnavailable, apiError{Message: "the server is busy with other checks (waited " +
		wait.String() + "); try again"})
}
