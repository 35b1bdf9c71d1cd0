package html

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/conc-dev/conc/report"
)

// Options shape the page. The zero value is the CLI's.
type Options struct {
	// Title is the page's title (default "conc: " and the verdict).
	Title string
	// Limit is the longest witness run drawn in full (default
	// DefaultLimit): a longer one is drawn around its cycle
	// (report.Witness.Window).
	Limit int
	// Lead is how many events of its thread a cycle event is drawn after
	// in a long run (default 3).
	Lead int
}

// DefaultLimit is as many event columns as a page 1,500 pixels wide shows
// at a readable size: a longer run drawn in full put its cycle, often at
// its end, out of sight (examples/long_thread.conc's 35 events showed 17
// transactions of one thread and no arrow).
const DefaultLimit = 20

func (o Options) withDefaults(r *report.Report) Options {
	if o.Title == "" {
		o.Title = "conc: " + r.Verdict
	}
	if o.Limit <= 0 {
		o.Limit = DefaultLimit
	}
	if o.Lead <= 0 {
		o.Lead = 3
	}
	return o
}

// Write writes r as one self-contained HTML page: no request for anything
// outside it, and one small inline script (stepScript) that walks the
// timelines event by event; the page reads the same without it.
func Write(w io.Writer, r *report.Report, o Options) error {
	o = o.withDefaults(r)
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n", esc(o.Title))
	b.WriteString("<style>\n" + CSS + "</style>\n<script>\n" + stepScript + "</script>\n</head>\n<body>\n")
	writeBody(b, r, o)
	b.WriteString("</body>\n</html>\n")
	return b.Flush()
}

// WriteFragment writes what Write puts in the page's body, in one
// <div class="conc-report">, for a page that embeds it; that page's style
// must include CSS.
func WriteFragment(w io.Writer, r *report.Report, o Options) error {
	o = o.withDefaults(r)
	b := bufio.NewWriter(w)
	writeBody(b, r, o)
	return b.Flush()
}

// writeBody is the verdict, any note, the witness, the groups and the
// summary line, in the text report's order (docs/spec.md §5).
func writeBody(b *bufio.Writer, r *report.Report, o Options) {
	b.WriteString(`<div class="conc-report">` + "\n")
	fmt.Fprintf(b, `<h1>conc: <span id="verdict" class="verdict %s">%s</span></h1>`+"\n", esc(r.Verdict), esc(r.Verdict))
	switch {
	case r.Verdict == "unknown":
		fmt.Fprintf(b, "<p class=\"reason\">%s</p>\n", esc(orDefault(r.Reason, "no reason given")))
	case r.Reason != "":
		fmt.Fprintf(b, "<p class=\"note\">note: %s</p>\n", esc(r.Reason))
	}
	if r.Witness != nil && len(r.Witness.Cycle) > 0 && r.Witness.Len() > 0 {
		writeWitness(b, r.Naming(), r.Witness, o)
	}
	if r.NonAtomic != nil || r.NonAtomicUnknown != "" {
		writeBlame(b, r)
	} else if len(r.Groups) > 0 {
		writeGroups(b, r)
	} else if r.First > 0 {
		fmt.Fprintf(b, "<p>first not serializable at trace line %d</p>\n", r.First)
	}
	fmt.Fprintf(b, "<p class=\"summary\">%s</p>\n</div>\n", esc(report.SummaryLine(r)))
}

// writeWitness draws the witness run and lists its cycle in words, threads
// named by n.
func writeWitness(b *bufio.Writer, n report.Naming, w *report.Witness, o Options) {
	shown := w.Window(o.Limit, o.Lead)
	b.WriteString("<section class=\"witness\">\n<h2>Witness</h2>\n")
	if len(shown) < w.Len() {
		fmt.Fprintf(b, "<p class=\"left-out\">The run has %s; drawn are %d: each event of the cycle after at most %d of its thread's events before it, "+
			"and the first and last events of each transaction on the cycle. The %s left out are marked ⋯ (the JSON has them all; predict's --witness-out all but the begin and end around unary events).</p>\n",
			plural(w.Len(), "event"), len(shown), o.Lead, plural(w.Len()-len(shown), "event"))
	} else {
		fmt.Fprintf(b, "<p>A run of %s that is not conflict-serializable. Hover over an event for its position.</p>\n", plural(w.Len(), "event"))
	}
	writeFigure(b, witnessDiagram(n, w, shown), witnessKey(w))
	edges := ""
	if w.LockEdges {
		edges = " (release→acquire, fork and join also conflict: --lock-edges)"
	}
	fmt.Fprintf(b, "<h3>Conflict cycle%s</h3>\n<ol class=\"cycle\">\n", esc(edges))
	for _, c := range w.Cycle {
		fmt.Fprintf(b, "<li>%s</li>\n", esc(c.Words))
	}
	b.WriteString("</ol>\n</section>\n")
}

// writeGroups lists conc monitor's groups as the text does, each with its
// example cycle drawn.
func writeGroups(b *bufio.Writer, r *report.Report) {
	n := r.ViolatingCount()
	b.WriteString("<section class=\"groups\">\n<h2>Violating transactions</h2>\n")
	if r.First > 0 {
		fmt.Fprintf(b, "<p>first not serializable at trace line %d</p>\n", r.First)
	}
	fmt.Fprintf(b, "<p>%d violating transaction%s in %s, grouped by code locations; each group's first cycle is drawn "+
		"(the cycle's events and its transactions' begin and end lines, by trace line).</p>\n", n, pluralS(n), plural(len(r.Groups), "group"))
	shown := r.ShownGroups()
	for k := range shown {
		g := &shown[k]
		fmt.Fprintf(b, "<section class=\"group\" data-group=\"%d\">\n<h3>Group %d: %s, first at line %d</h3>\n",
			k+1, k+1, plural(g.Count, "violating transaction"), g.First)
		fmt.Fprintf(b, "<p class=\"signature\">signature: <code>%s</code></p>\n", esc(g.Signature))
		if g.Elided > 0 {
			fmt.Fprintf(b, "<p class=\"left-out\">The cycle's middle (%s) is left out (--max-cycle): the dashed arrow.</p>\n", plural(g.Elided, "transaction"))
		}
		writeFigure(b, groupDiagram(r.Naming(), k+1, g, "violating"), keyViolating)
		b.WriteString("</section>\n")
	}
	if more := len(r.Groups) - len(shown); more > 0 {
		fmt.Fprintf(b, "<p class=\"left-out\">… and %s more (--max-groups 0 shows all)</p>\n", plural(more, "group"))
	}
	b.WriteString("</section>\n")
}

// writeBlame lists conc monitor's default answer as the text does: the
// broken transactions' groups, each with its example path drawn (the
// broken transaction in red), the joint violation's cycle, and how many
// atomic blocks lie on a cycle.
func writeBlame(b *bufio.Writer, r *report.Report) {
	b.WriteString("<section class=\"groups\">\n<h2>Broken transactions</h2>\n")
	if r.First > 0 {
		fmt.Fprintf(b, "<p>first not serializable at trace line %d</p>\n", r.First)
	}
	if s := r.Spanning(r.TraceLines); s != nil {
		own := s.Cycle[0]
		fmt.Fprintf(b, "<p class=\"note\">note: %s spans most of the trace and is broken by the threads running inside it (a harness method?); "+
			"<code>--not-atomic line:%d</code> treats it as not atomic and shows the transactions inside</p>\n", esc(own.Label(r.Naming())), own.Begin)
	}
	if r.NonAtomicUnknown != "" {
		fmt.Fprintf(b, "<p class=\"reason\">broken transactions not decided: %s; the verdict is the conflict graph's</p>\n", esc(r.NonAtomicUnknown))
	}
	if n := r.NonAtomicCount(); n > 0 {
		fmt.Fprintf(b, "<p>%s broken by %s, in %s, grouped by code locations; each group's first is drawn with the path that breaks it "+
			"(by trace line: where the path leaves it, the other threads' events it runs through, where it comes back).</p>\n",
			esc(plural(int(n), "transaction")), map[bool]string{true: "itself", false: "themselves"}[n == 1], plural(len(r.NonAtomicGroups), "group"))
	}
	shown := r.ShownBlame()
	for k := range shown {
		g := &shown[k]
		if g.Broken {
			fmt.Fprintf(b, "<section class=\"group\" data-group=\"%d\">\n<h3>Group %d: %s, first at line %d</h3>\n",
				k+1, k+1, plural(g.Count, "broken transaction"), g.First)
		} else {
			fmt.Fprintf(b, "<section class=\"group joint\" data-group=\"%d\">\n<h3>No transaction is broken by itself, but these %d cannot all be atomic (a joint violation)</h3>\n",
				k+1, len(g.Cycle))
		}
		fmt.Fprintf(b, "<p class=\"signature\">signature: <code>%s</code></p>\n", esc(g.Signature))
		if g.Broken {
			writeFigure(b, groupDiagram(r.Naming(), k+1, g, "broken"), keyBroken)
		} else {
			writeFigure(b, groupDiagram(r.Naming(), k+1, g, ""), keyJoint)
		}
		b.WriteString("</section>\n")
	}
	if more := len(r.NonAtomicGroups) + len(r.Joint) - len(shown); more > 0 {
		fmt.Fprintf(b, "<p class=\"left-out\">… and %s more (--max-groups 0 shows all)</p>\n", plural(more, "group"))
	}
	if r.OnCycle != nil && *r.OnCycle > 0 {
		fmt.Fprintf(b, "<p>%s on a cycle of conflicts (--cycles groups every transaction on one)</p>\n", esc(plural(int(*r.OnCycle), "atomic block")))
	}
	b.WriteString("</section>\n")
}

// The legends' words for the red box, the text report's: what the
// default answer calls broken, --cycles violating, predict and check
// interrupted (a cycle's transaction another thread's cycle event falls
// inside of).
const (
	keyBroken      = `<span class="key-interrupted">the red one broken by itself</span> (the path leaves it and comes back into it)`
	keyViolating   = `<span class="key-interrupted">the red one violating</span> (on a cycle: the cycle leaves it and comes back into it)`
	keyJoint       = `none is broken by itself (a joint violation: together they cannot all be atomic)`
	keyInterrupted = `<span class="key-interrupted">the red one interrupted</span>`
)

// witnessKey is the legend's word for a witness's red boxes: broken when
// the report names the transactions the run breaks by itself (conc
// predict), else interrupted.
func witnessKey(w *report.Witness) string {
	switch {
	case w.Broken == nil:
		return keyInterrupted
	case len(*w.Broken) == 0:
		return keyJoint
	}
	return keyBroken
}

// writeFigure puts a diagram in a scrolling figure with its legend, key
// saying what the red box is.
func writeFigure(b *bufio.Writer, d *diagram, key string) {
	b.WriteString("<figure>\n<div class=\"scroll\">\n")
	d.draw(b)
	b.WriteString("</div>\n<figcaption>Lanes are threads, time runs left to right; boxes are transactions, " + key +
		"; <span class=\"key-cycle\">filled marks</span> are the cycle's events, joined by its conflicts (arrows, labelled with the variable or the ordering edge).</figcaption>\n</figure>\n")
}

func pluralS(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// CSS is the pages' style sheet: system fonts only.
const CSS = `body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 100em; }
.conc-report h1 { font-size: 1.4em; margin: 0 0 .5em; }
.verdict { padding: .1em .4em; border-radius: .3em; color: #fff; }
.verdict.violation { background: #c0392b; }
.verdict.serializable { background: #27ae60; }
.verdict.unknown { background: #7f8c8d; }
.note, .reason, .left-out { color: #555; }
.summary { color: #666; font-size: .9em; }
.conc-report figure { margin: .5em 0 1em; }
.scroll { overflow-x: auto; border: 1px solid #ddd; background: #fcfcfc; }
figcaption { font-size: .85em; color: #555; }
.key-interrupted { color: #c0392b; }
.key-cycle { color: #2c3e50; font-weight: bold; }
svg.timeline { font-family: ui-monospace, monospace; font-size: 11px; display: block; max-width: 100%; height: auto; }
svg .lane { stroke: #ccc; stroke-width: 1; }
svg .lane-name { font-weight: bold; fill: #333; }
svg .axis, svg .gap-count { fill: #999; font-size: 9px; text-anchor: middle; }
svg .axis-name { fill: #777; font-size: 9px; font-style: italic; }
svg .gap line { stroke: #bbb; stroke-dasharray: 2 4; }
svg .gap text { fill: #999; text-anchor: middle; }
svg .txn rect { fill: #eef3f8; stroke: #9ab; stroke-width: 1; }
svg .txn.on-cycle rect { fill: #e3edf7; stroke: #2c3e50; stroke-width: 1.5; }
svg .txn.interrupted rect { fill: #fbe9e7; stroke: #c0392b; stroke-width: 3; }
svg .txn text { fill: #456; font-size: 10px; }
svg .txn.interrupted text { fill: #c0392b; font-weight: bold; }
svg .event circle { fill: #fff; stroke: #567; stroke-width: 1.5; }
svg .event.cycle circle { fill: #2c3e50; stroke: #2c3e50; }
svg .event.cycle.interrupted circle { fill: #c0392b; stroke: #c0392b; }
svg .event text { text-anchor: middle; fill: #333; paint-order: stroke; stroke: #fcfcfc; stroke-width: 3px; stroke-linejoin: round; }
svg .event .target { fill: #666; font-size: 10px; }
svg .edge path { fill: none; stroke: #2c3e50; stroke-width: 1.8; }
svg .edge.elided path { stroke-dasharray: 5 4; stroke: #888; }
svg marker path { fill: #2c3e50; }
svg .edge-label { text-anchor: middle; fill: #2c3e50; font-weight: bold; paint-order: stroke; stroke: #fff; stroke-width: 4px; stroke-linejoin: round; }
svg .edge-label.same-lane { font-size: 8px; font-weight: normal; }
svg .future { opacity: .15; }
svg .event.current circle { stroke: #e67e22; stroke-width: 4; }
svg .edge.fresh path { stroke: #e67e22; stroke-width: 3; }
svg .edge-label.fresh { fill: #e67e22; }
.stepper { font-size: .85em; margin: .3em 0; }
.stepper .now { color: #555; font-family: ui-monospace, monospace; }
`
