package html

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/conc-dev/conc/report"
)

// groupDiagram lays out group k's example cycle (conc monitor): a column
// per trace line the cycle names (its events, and its transactions'
// begin and end lines), a lane per thread, a box per transaction (the
// violating one, Cycle[0], in red unless it is a lone unary event), a
// mark per event (data-event: its trace line) and an arrow per edge of
// the cycle (data-edge: the two lines; an elided middle dashed, without).
// n names the threads; red is the text's word for Cycle[0] ("violating"
// for --cycles, "broken" for the default answer, "" for a joint
// violation, which breaks none).
func groupDiagram(n report.Naming, k int, g *report.Group, red string) *diagram {
	d := &diagram{id: fmt.Sprintf("group%d", k), axis: "line"}
	col := groupColumns(d, g)
	lane := map[string]int{}
	markOf := map[int]int{} // trace line -> mark
	boxOf := map[[2]int]bool{}
	for i, t := range g.Cycle {
		l, ok := lane[t.Thread]
		if !ok {
			l = len(d.lanes)
			lane[t.Thread] = l
			d.lanes = append(d.lanes, n.Thread(t.Thread))
		}
		violating := i == 0 && !t.Unary() && red != ""
		if key := [2]int{l, t.Begin}; !boxOf[key] {
			boxOf[key] = true
			x := groupBox(n, t, l, col, len(d.cols)-1, violating)
			if violating && red == "broken" {
				x.name = t.Label(n) + ": broken"
				x.title = "transaction " + t.Label(n) + ": broken by itself: the path leaves it and comes back into it"
			}
			d.boxes = append(d.boxes, x)
		}
		for _, e := range t.Events {
			if _, ok := markOf[e.Line]; ok {
				continue
			}
			markOf[e.Line] = len(d.marks)
			d.marks = append(d.marks, mark{col: col[e.Line], lane: l, data: strconv.Itoa(e.Line),
				op: opText(e), target: e.Target, title: traceTitle(n, t.Thread, e), cycle: true, interrupted: violating})
		}
	}
	for _, e := range g.Edges() {
		a := arrow{from: markOf[e.From.Line], to: markOf[e.To.Line], label: e.Label,
			title: fmt.Sprintf("line %d comes before line %d: %s", e.From.Line, e.To.Line, e.Label)}
		if e.Elided == 0 {
			a.edge = fmt.Sprintf("%d-%d", e.From.Line, e.To.Line)
		} else {
			a.label = fmt.Sprintf("⋯ %s", plural(e.Elided, "more transaction"))
			a.title = fmt.Sprintf("%s left out between lines %d and %d (--max-cycle)", plural(e.Elided, "transaction"), e.From.Line, e.To.Line)
		}
		d.arrows = append(d.arrows, a)
	}
	return d
}

// groupColumns gives every line the cycle names a column, in line order,
// and returns each line's column.
func groupColumns(d *diagram, g *report.Group) map[int]int {
	var lines []int
	for _, t := range g.Cycle {
		lines = append(lines, t.Begin)
		if t.End != nil {
			lines = append(lines, *t.End)
		}
		for _, e := range t.Events {
			lines = append(lines, e.Line)
		}
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	col := map[int]int{}
	for i, l := range lines {
		col[l] = i
		d.cols = append(d.cols, column{label: strconv.Itoa(l)})
	}
	return col
}

// groupBox is transaction t's box: from its begin line to its end, or to
// the last column if the trace never ends it.
func groupBox(n report.Naming, t report.CycleTxn, lane int, col map[int]int, last int, violating bool) box {
	x := box{lane: lane, from: col[t.Begin], to: last, cycle: true, interrupted: violating, name: t.Label(n)}
	if t.End != nil {
		x.to = col[*t.End]
	}
	x.title = "transaction " + x.name
	if t.Stretch {
		x.title = fmt.Sprintf("%s: the stretch of %s the path runs through, from line %d to line %d (not a transaction)",
			x.name, n.Thread(t.Thread), t.Begin, *t.End)
	}
	if t.Unary() {
		// Its one column is too narrow for a name: the axis has its line.
		x.name, x.title = "", fmt.Sprintf("unary transaction: %s's event at line %d, outside any atomic block", n.Thread(t.Thread), t.Begin)
	}
	if violating {
		x.name += ": violating"
		x.title += ": the violating transaction, which the cycle leaves and comes back into"
	}
	return x
}

// opText is an event's op in STD's spelling, "?" for an event the
// grouping could not read again (a trace on standard input).
func opText(e report.TraceEvent) string {
	if e.Op == "" {
		return "?"
	}
	return e.Op
}

func traceTitle(n report.Naming, thread string, e report.TraceEvent) string {
	t := n.Thread(thread) + ": " + opText(e)
	if e.Target != "" {
		t += " " + e.Target
	}
	return t + fmt.Sprintf(" at trace line %d", e.Line)
}
