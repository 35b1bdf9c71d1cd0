package serve

import (
	"net/http"

	"github.com/conc-dev/conc/report/html"
)

// timeline is POST /api/timeline: the witness of the body's check as a
// self-contained HTML page, which the playground shows in an iframe: the
// page conc check --html writes (report/html).
func (s *server) timeline(w http.ResponseWriter, r *http.Request) {
	src, q, ok := s.request(w, r)
	if !ok {
		return
	}
	rep := s.decide(w, r, src, q)
	if rep == nil {
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	html.Write(w, rep, html.Options{}) // the client may have gone; nothing to tell it
}
