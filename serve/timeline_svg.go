package serve

import (
	"fmt"
	"html"
	"strings"

	"github.com/conc-dev/conc/report"
)

// A minimal drawing of a witness, until the --html renderer is merged:
// a lane per thread, each event a mark at its place in the run, each
// transaction a box from its begin to its end (those with an event on the
// cycle drawn bold), and the cycle's conflicts as arrows labelled as in
// the text report. Events carry data-event (their index in the JSON
// witness.run), arrows data-edge ("FROM-TO"), as issue 18 asks of the
// renderer.

// Geometry of the drawing, in pixels.
const (
	laneHeight  = 70
	eventStep   = 44
	leftMargin  = 70
	topMargin   = 40
	maxDrawnRun = 400 // longer runs are left to the text report
)

// witnessSVG draws w, or returns "" for a run too long to draw.
func witnessSVG(w *report.Witness) string {
	n := w.Len()
	if n == 0 || n > maxDrawnRun {
		return ""
	}
	events := make([]report.Event, n)
	lane := map[string]int{}
	var threads []string
	for i := range events {
		events[i] = w.Event(i)
		if _, ok := lane[events[i].Thread]; !ok {
			lane[events[i].Thread] = len(threads)
			threads = append(threads, events[i].Thread)
		}
	}
	x := func(i int) int { return leftMargin + i*eventStep }
	y := func(i int) int { return topMargin + lane[events[i].Thread]*laneHeight }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`,
		x(n)+20, topMargin+len(threads)*laneHeight+10)
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#b00"/></marker></defs>`)
	for t, name := range threads {
		ly := topMargin + t*laneHeight
		fmt.Fprintf(&b, `<text x="6" y="%d">%s</text><line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#ccc"/>`,
			ly+4, html.EscapeString(name), leftMargin-10, ly, x(n), ly)
	}
	for _, s := range transactions(events) {
		width := "1"
		if s.onCycle {
			width = "2.5"
		}
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="24" rx="5" fill="#eef3ff" stroke="#36c" stroke-width="%s"/>`,
			x(s.first)-10, y(s.first)-12, x(s.last)-x(s.first)+20, width)
	}
	for i, e := range events {
		fill := "#555"
		if e.OnCycle {
			fill = "#b00"
		}
		fmt.Fprintf(&b, `<circle data-event="%d" cx="%d" cy="%d" r="5" fill="%s"><title>%d: %s %s %s %s</title></circle>`,
			i, x(i), y(i), fill, i, html.EscapeString(e.Thread), e.Op, html.EscapeString(e.Target), html.EscapeString(e.Pos))
		if e.Target != "" && e.Op != "begin" && e.Op != "end" {
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" font-size="10">%s %s</text>`,
				x(i), y(i)-16+(i%2)*40, opShort(e.Op), html.EscapeString(e.Target)) // alternately above and below
		}
	}
	for k, c := range w.Cycle {
		// Labels of nearby arrows are stacked, one line each.
		ly := (y(c.From)+y(c.To))/2 + (2*k-len(w.Cycle))*8
		fmt.Fprintf(&b, `<g data-edge="%d-%d"><path d="M%d,%d C%d,%d %d,%d %d,%d" fill="none" stroke="#b00" stroke-width="1.5" marker-end="url(#arrow)"/>`+
			`<text x="%d" y="%d" fill="#b00" text-anchor="middle" paint-order="stroke" stroke="#fff" stroke-width="4">%s</text></g>`,
			c.From, c.To, x(c.From), y(c.From), x(c.From)+20, (y(c.From)+y(c.To))/2, x(c.To)-20, (y(c.From)+y(c.To))/2,
			x(c.To), y(c.To), (x(c.From)+x(c.To))/2, ly, html.EscapeString(c.Label))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// span is one transaction of the run: its first and last events.
type span struct {
	first, last int
	onCycle     bool
}

// transactions finds each thread's begin…end spans; one still open when
// the run stops ends at its thread's last event.
func transactions(events []report.Event) []span {
	open := map[string]*span{}
	var out []span
	for i, e := range events {
		s := open[e.Thread]
		switch {
		case e.Op == "begin":
			open[e.Thread] = &span{first: i, last: i, onCycle: e.OnCycle}
			continue
		case s == nil:
			continue
		}
		s.last = i
		s.onCycle = s.onCycle || e.OnCycle
		if e.Op == "end" {
			out = append(out, *s)
			delete(open, e.Thread)
		}
	}
	for _, s := range open {
		out = append(out, *s)
	}
	return out
}

// opShort abbreviates an operation beside its mark.
func opShort(op string) string {
	switch op {
	case "read":
		return "r"
	case "write":
		return "w"
	case "acquire":
		return "acq"
	case "release":
		return "rel"
	}
	return op
}
