package html

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/conc-dev/conc/report"
)

// witnessDiagram lays out the shown events of w (report.Witness.Window):
// a column per event in run order, a gap column for each stretch left
// out, a box per transaction (the interrupted ones of the cycle in red),
// and an arrow per conflict of the cycle. n names the threads.
func witnessDiagram(n report.Naming, w *report.Witness, shown []report.Shown) *diagram {
	d := &diagram{id: "witness", axis: "event"}
	if w.STDEvents > 0 {
		d.axis = "line" // a trace's: the text names its events by line
	}
	lane := map[string]int{}
	markOf := map[int]int{} // run index -> mark
	interrupted, word := interruptedTxns(w), "interrupted"
	if w.Broken != nil {
		interrupted, word = brokenTxns(w), "broken"
	}
	for k, s := range shown {
		prev := -1
		if k > 0 {
			prev = shown[k-1].Index
		}
		if n := s.Index - prev - 1; n > 0 {
			d.cols = append(d.cols, column{label: plural(n, "event"),
				gap: fmt.Sprintf("%s left out: run events %d to %d", plural(n, "event"), prev+1, s.Index-1)})
		}
		l, ok := lane[s.Thread]
		if !ok {
			l = len(d.lanes)
			lane[s.Thread] = l
			d.lanes = append(d.lanes, n.Thread(s.Thread))
		}
		markOf[s.Index] = len(d.marks)
		d.marks = append(d.marks, mark{col: len(d.cols), lane: l, data: strconv.Itoa(s.Index),
			op: s.Op, target: s.Target, title: eventTitle(n, s), cycle: s.OnCycle,
			interrupted: interrupted[s.Txn]})
		d.cols = append(d.cols, column{label: axisLabel(d.axis, s)})
	}
	if n := w.Len() - 1 - shown[len(shown)-1].Index; n > 0 {
		d.cols = append(d.cols, column{label: plural(n, "event"), gap: plural(n, "event") + " left out at the end of the run"})
	}
	d.boxes = txnBoxes(n, d, shown, interrupted, word)
	for _, c := range w.Cycle {
		f, t := markOf[c.From], markOf[c.To]
		d.arrows = append(d.arrows, arrow{from: f, to: t, label: edgeLabel(shown, f, t), title: c.Words,
			edge: fmt.Sprintf("%d-%d", c.From, c.To)})
	}
	return d
}

// axisLabel is an event's column label: on a line axis its trace line
// (the number after the position's last colon; none if it has no
// position), else its run index (the tooltip has both).
func axisLabel(axis string, s report.Shown) string {
	if axis != "line" {
		return strconv.Itoa(s.Index)
	}
	if i := strings.LastIndexByte(s.Pos, ':'); i >= 0 {
		if _, err := strconv.Atoi(s.Pos[i+1:]); err == nil {
			return s.Pos[i+1:]
		}
	}
	return ""
}

// txnBoxes boxes each transaction from its first to its last shown event,
// those in red named with word.
func txnBoxes(n report.Naming, d *diagram, shown []report.Shown, red map[int]bool, word string) []box {
	byTxn := map[int]int{} // transaction -> its box
	var boxes []box
	for k, s := range shown {
		if s.Txn < 0 {
			continue
		}
		m := d.marks[k]
		i, ok := byTxn[s.Txn]
		if !ok {
			i = len(boxes)
			byTxn[s.Txn] = i
			name := n.Thread(s.Thread) + "#" + strconv.Itoa(s.Nth)
			boxes = append(boxes, box{lane: m.lane, from: m.col, name: name, interrupted: red[s.Txn]})
			if boxes[i].interrupted {
				boxes[i].name += ": " + word
			}
		}
		boxes[i].to = m.col
		boxes[i].cycle = boxes[i].cycle || s.OnCycle
	}
	for i := range boxes {
		x := &boxes[i]
		x.title = fmt.Sprintf("transaction %s, drawn from column %d to %d", x.name, x.from, x.to)
	}
	return boxes
}

// interruptedTxns are the transactions of the cycle that another
// thread's cycle event falls inside of (between their first and last
// events): the atomic blocks the cycle breaks into. A violation has at
// least one.
func interruptedTxns(w *report.Witness) map[int]bool {
	out := map[int]bool{}
	for _, t := range w.Txns {
		if t.ID < 0 || len(t.Events) < 2 {
			continue
		}
		first, last := t.Events[0], t.Events[len(t.Events)-1]
		for _, c := range w.Cycle {
			for _, e := range []int{c.From, c.To} {
				if first < e && e < last && w.Event(e).Thread != t.Thread {
					out[t.ID] = true
				}
			}
		}
	}
	return out
}

// brokenTxns are the transactions of the cycle that the run breaks by
// itself (report.Witness.Broken), as the text names them.
func brokenTxns(w *report.Witness) map[int]bool {
	out := map[int]bool{}
	if w.Broken == nil {
		return out
	}
	for _, b := range *w.Broken {
		out[w.Txns[b.Txn].ID] = true
	}
	return out
}

// edgeLabel is the conflict's label in a word or two: the variable of an
// access conflict, or the kind of ordering edge.
func edgeLabel(shown []report.Shown, f, t int) string {
	a, b := shown[f].Event, shown[t].Event
	switch {
	case a.Thread == b.Thread:
		return "program order"
	case isAccess(a.Op) && isAccess(b.Op):
		return a.Target
	case a.Op == "release" && b.Op == "acquire":
		return "release→acquire " + a.Target
	case a.Op == "fork":
		return "fork"
	case b.Op == "join":
		return "join"
	}
	return a.Op + " → " + b.Op
}

func isAccess(op string) bool { return op == "read" || op == "write" }

// eventTitle is an event's tooltip: thread, op, target, position, index.
func eventTitle(n report.Naming, s report.Shown) string {
	t := n.Thread(s.Thread) + ": " + s.Op
	if s.Target != "" {
		t += " " + s.Target
	}
	if s.Pos != "" {
		t += " at " + s.Pos
	}
	return t + fmt.Sprintf(" (run event %d)", s.Index)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
