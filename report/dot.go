package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteDOT prints the witness's conflict cycle as a Graphviz digraph: one box
// per transaction on the cycle, labelled with its thread and its events, and
// one edge per conflict, labelled with what conflicts. A report without a
// witness gives an empty graph whose label is the verdict line, so a --dot
// file is always a valid graph.
func WriteDOT(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w) // a monitor's answer may have a million violations
	b.WriteString("digraph conflicts {\n")
	b.WriteString("  rankdir=LR;\n")
	b.WriteString("  node [shape=box, fontname=\"monospace\"];\n")
	switch {
	case r.Witness != nil && len(r.Witness.Txns) > 0:
		writeDOTCycle(b, r.naming, r.Witness, r.TxnLines)
	case r.NonAtomic != nil || r.NonAtomicUnknown != "":
		writeDOTGroups(b, r.naming, r.ShownBlame())
	case len(r.Groups) > 0:
		writeDOTGroups(b, r.naming, r.shownGroups())
	default:
		fmt.Fprintf(b, "  label=%s;\n", quote(verdictLine(r)))
	}
	b.WriteString("}\n")
	return b.Flush()
}

// writeDOTCycle prints one node per distinct transaction of the cycle (a
// cycle passes each transaction once, but an engine's cycle is not trusted to)
// and one edge per conflict, from the transaction of its From event to that of
// its To event. n names the threads; lines adds each transaction's lines
// to its name, as the text's cycle line has them.
func writeDOTCycle(b *bufio.Writer, n Naming, w *Witness, lines bool) {
	drawn := map[int]string{} // transaction key -> node name
	key := func(txn, event int) int {
		if txn >= 0 {
			return txn
		}
		return -2 - event // an event outside any transaction stands alone
	}
	for _, t := range w.Txns {
		k := key(t.ID, t.Events[0])
		if _, ok := drawn[k]; !ok {
			drawn[k] = fmt.Sprintf("t%d", len(drawn))
			fmt.Fprintf(b, "  %s [label=%s];\n", drawn[k], txnLabel(n, w, t, lines))
		}
	}
	for i, c := range w.Cycle {
		from := drawn[key(w.Txns[i].ID, w.Txns[i].Events[0])]
		to, ok := drawn[key(w.txnOf(c.To), c.To)]
		if !ok { // the cycle does not chain here: draw the lone event
			to = fmt.Sprintf("e%d", c.To)
			fmt.Fprintf(b, "  %s [label=%s];\n", to, quote(eventText(w.Event(c.To))))
		}
		fmt.Fprintf(b, "  %s -> %s [label=%s];\n", from, to, quote(c.Label))
	}
}

// txnLabel is the transaction's name (with its lines if lines: "T0#1
// (lines 1-open)") then its events, one a left-justified line ("\l" in
// DOT). A long transaction (a trace's main thread can have
// thousands of events in one) lists only its first and last events and
// those of the cycle, with "… N more events" between, so that Graphviz
// can lay the label out.
func txnLabel(n Naming, w *Witness, t Txn, withLines bool) string {
	name := txnName(n, t)
	if withLines {
		name += t.lines()
	}
	lines := []string{dotEscape(name)}
	long := len(t.Events) > maxLabelEvents
	skipped := 0
	for k, i := range t.Events {
		e := w.Event(i)
		if long && k > 0 && k < len(t.Events)-1 && !e.OnCycle {
			skipped++
			continue
		}
		if skipped > 0 {
			lines = append(lines, "… "+plural(skipped, "more event"))
			skipped = 0
		}
		lines = append(lines, dotEscape(fmt.Sprintf("%d: %s", i, eventText(e))))
	}
	return "\"" + strings.Join(lines, "\\l") + "\\l\""
}

// maxLabelEvents is the most events a transaction's box lists in full.
const maxLabelEvents = 12

func eventText(e Event) string {
	s := e.Op
	if e.Target != "" {
		s += " " + e.Target
	}
	if e.Pos != "" {
		s += "  " + e.Pos
	}
	return s
}

func quote(s string) string { return "\"" + dotEscape(s) + "\"" }

// dotEscape escapes a string for a DOT quoted ID.
func dotEscape(s string) string { return dotEscaper.Replace(s) }

var dotEscaper = strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", "\\n")
