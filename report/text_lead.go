package report

import (
	"bufio"
	"fmt"
	"strconv"

	"github.com/conc-dev/conc/model"
)

// writeLeadIn prints the witness run abridged for a person: its length,
// then only the cycle's events, each after at most lead events of its own
// thread that lead into it (what that thread did just before), in run
// order. The whole run is --witness-out's and the JSON's; a predicted run
// can be millions of events long (crypt: 3.5 million), so the header says
// where to get it: nothing else in the text would tell a reader.
func writeLeadIn(b *bufio.Writer, w *Witness, lead int) {
	fmt.Fprintf(b, "witness run of %s (all of them: --format json; as a trace: --witness-out FILE)\n", plural(w.Len(), "event"))
	b.WriteString(longerRun(w))
	fmt.Fprintf(b, "the cycle's events (*), each after at most %d events of its own thread:\n", lead)
	writeRows(b, w, leadIn(w, lead))
}

// longerRun explains, when the run has more events than the trace
// --witness-out writes (STDEvents), where they come from: a run can be
// twice as long as the trace it was predicted from (crypt: 3.57 million
// events for 1.68 million lines), which looks like a bug until said.
func longerRun(w *Witness) string {
	if w.STDEvents <= 0 || w.STDEvents >= w.Len() {
		return ""
	}
	return fmt.Sprintf("it has %d more events than the trace --witness-out writes (%d): "+
		"the begin and end it puts around each event outside a transaction\n", w.Len()-w.STDEvents, w.STDEvents)
}

// leadIn marks the events writeLeadIn shows: a backward pass that, at each
// cycle event, grants its thread lead more events. Invariant: left[t] is
// how many events of thread t before the current index are still shown.
func leadIn(w *Witness, lead int) []bool {
	n := w.Len()
	show := make([]bool, n)
	left := map[string]int{}
	for i := n - 1; i >= 0; i-- {
		t, cyc := w.threadAndCycle(i)
		switch {
		case cyc:
			show[i], left[t] = true, lead
		case left[t] > 0:
			show[i] = true
			left[t]--
		}
	}
	return show
}

// threadAndCycle are event i's thread and whether the cycle names it.
func (w *Witness) threadAndCycle(i int) (string, bool) {
	if l := w.lean; l != nil {
		_, cyc := l.txn[i]
		return l.p.Threads[l.run[i].Thread].Name, cyc
	}
	return w.Run[i].Thread, w.Run[i].OnCycle
}

// txnLines sets the Begin and End lines of the cycle's transactions txns
// from their events in run: those of the first event and of its end, End 0
// (open) if the run stops before the end.
func txnLines(run []model.Step, txns []Txn) {
	for i, t := range txns {
		if len(t.Events) == 0 {
			continue
		}
		first, last := run[t.Events[0]].Ev, run[t.Events[len(t.Events)-1]].Ev
		if !first.Pos.IsValid() {
			continue
		}
		txns[i].Begin = int(first.Pos.Line)
		if last.Op == model.OpEnd && last.Pos.IsValid() {
			txns[i].End = int(last.Pos.Line)
		}
	}
}

// lines are t's lines as the text's cycle line and the DOT name it,
// " (lines B-E)", E "open" if the run stops before its end ("" if its
// first event has no position).
func (t Txn) lines() string {
	if t.Begin == 0 {
		return ""
	}
	end := "open"
	if t.End > 0 {
		end = strconv.Itoa(t.End)
	}
	return fmt.Sprintf(" (lines %d-%s)", t.Begin, end)
}
