package serve

import (
	"embed"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
)

//go:embed static
var static embed.FS

// server is the playground's handler state.
type server struct {
	cfg     Config
	slots   *slots
	answers *answers
}

// New is the playground's handler: the page at /, the API under /api/
// (docs/spec.md §4, conc serve). cfg.Check and cfg.Explain must be set.
func New(cfg Config) http.Handler {
	cfg = cfg.withDefaults()
	s := &server{cfg: cfg, slots: newSlots(cfg.MaxChecks), answers: newAnswers(cfg.Remember)}
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
	w.Header().Set("Retry-After", "1")
	writeErrors(w, http.StatusServiceUnavailable, apiError{Message: "the server is busy with other checks (waited " +
		s.cfg.QueueWait.String() + "); try again"})
	return false
}
