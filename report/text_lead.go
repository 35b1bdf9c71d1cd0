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
	fmt.Fprintf(b, "witness run of %s (whole: --witness-out FILE or --format json); the cycle's events (*), each after at most %d of its thread's before it:\n",
		plural(w.Len(), "event"), lead)
	writeRows(b, w, leadIn(w, lead))
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

// txnLines are the trace lines of a predicted witness's transaction t, " (lines
// B-E)": those of its first event and of its end, "open" if the run stops
// before it ("" for a run not lean, whose positions are text).
func (w *Witness) txnLines(t Txn) string {
	l := w.lean
	if l == nil || len(t.Events) == 0 {
		return ""
	}
	first, last := l.run[t.Events[0]].Ev, l.run[t.Events[len(t.Events)-1]].Ev
	if !first.Pos.IsValid() {
		return ""
	}
	end := "open"
	if last.Op == model.OpEnd && last.Pos.IsValid() {
		end = strconv.Itoa(int(last.Pos.Line))
	}
	return fmt.Sprintf(" (lines %d-%s)", first.Pos.Line, end)
}
