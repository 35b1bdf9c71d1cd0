package serve

import (
	"html/template"
	"io"
	"net/http"
	"strings"

	"github.com/conc-dev/conc/report"
)

// timeline is POST /api/timeline: the witness of the body's check as a
// self-contained HTML page, which the playground shows in an iframe (what
// conc check --html would write).
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
	writeTimeline(w, rep) // the client may have gone; nothing to tell it
}

// timelinePage is the placeholder page: a minimal drawing of the witness
// (timeline_svg.go), and the text report, whose witness table lists the
// run and whose cycle lines name the conflicts.
var timelinePage = template.Must(template.New("timeline").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>conc witness</title>
<style>body{font:14px/1.4 ui-monospace,monospace;margin:8px}pre{white-space:pre-wrap}</style>
</head><body>{{.SVG}}<pre id="report">{{.Text}}</pre></body></html>
`))

// writeTimeline renders rep's witness as one HTML page.
//
// timeline: switch to the --html renderer once merged
func writeTimeline(w io.Writer, rep *report.Report) error {
	var b strings.Builder
	if err := report.WriteText(&b, rep, report.TextOptions{}); err != nil {
		return err
	}
	var svg template.HTML
	if rep.Witness != nil {
		svg = template.HTML(witnessSVG(rep.Witness)) // escaped as it is built
	}
	return timelinePage.Execute(w, struct {
		SVG  template.HTML
		Text string
	}{svg, b.String()})
}
