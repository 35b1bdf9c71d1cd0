package report

import (
	"bufio"
	"fmt"
)

// writeLeadIn prints the witness run abridged for a person: its length,
// then only the cycle's events, each after at most lead events of its own
// thread that lead into it (what that thread did just before), in run
// order. The whole run is --witness-out's and the JSON's; a predicted run
// can be millions of events long (crypt: 3.5 million).
func writeLeadIn(b *bufio.Writer, w *Witness, lead int) {
	fmt.Fprintf(b, "witness run of %s; the cycle's events (*), each after at most %d of its thread's before it:\n",
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
