package report

import "github.com/conc-dev/conc/model"

// What a picture of a witness needs (package report/html): the part of the
// run it draws, each event with its transaction, and a group's example
// cycle edge by edge. A predicted witness can be millions of events long,
// so a window is the cycle's neighbourhood, found in passes that spell out
// only the events shown.

// Shown is an event of a Window: its index in the run (Witness.Run, the
// JSON's witness.run), the event with its transaction (Event.Txn, -1 for
// none; Txn.ID numbers alike), and that transaction's ordinal among its
// thread's (Txn.Nth; 0 for none).
type Shown struct {
	Index int
	Event
	Nth int
}

// Window is the run's events a picture draws, in run order: all of them
// when the run has at most limit events; otherwise the cycle's
// neighbourhood, that is each cycle event after at most lead events of its
// thread before it (as conc predict's text shows them) and the first and
// last events of each transaction on the cycle (its begin and end). The
// gaps between consecutive Index values are what it leaves out.
func (w *Witness) Window(limit, lead int) []Shown {
	n := w.Len()
	var show []bool
	if n > limit {
		show = leadIn(w, lead)
		for _, t := range w.Txns {
			show[t.Events[0]], show[t.Events[len(t.Events)-1]] = true, true
		}
	}
	txnAt := w.txnCounter()
	var out []Shown
	for i := range n {
		txn, nth := txnAt(i)
		if show != nil && !show[i] {
			continue
		}
		e := w.Event(i)
		e.Txn = txn
		out = append(out, Shown{Index: i, Event: e, Nth: nth})
	}
	return out
}

// txnCounter returns a function giving the transaction and ordinal of
// events 0, 1, 2, … called in that order: model.TxnCounter over a lean run,
// the spelled-out run's Txn otherwise, with the ordinals spellOut kept (0
// for a witness made by hand, which has none).
func (w *Witness) txnCounter() func(i int) (txn, nth int) {
	if l := w.lean; l != nil {
		c := model.NewTxnCounter(w.LockEdges, len(l.p.Threads))
		return func(i int) (int, int) {
			x, n, _ := c.Step(l.run[i])
			return x, n
		}
	}
	return func(i int) (int, int) {
		x := w.Run[i].Txn
		if x < 0 || x >= len(w.nth) {
			return x, 0
		}
		return x, w.nth[x]
	}
}

// GroupEdge is one conflict of a group's example cycle: event From of
// transaction Cycle[FromTxn] comes before event To of Cycle[ToTxn]
// (ToTxn = FromTxn+1, 0 for the edge that closes the cycle). Label says
// why in a word or two: the variable, or the kind of ordering edge
// ("program order", "lock L", "fork", "join"). Elided > 0 stands for that
// many transactions left out between the two (--max-cycle): From and To
// are then the ends of the elision, not a conflict.
type GroupEdge struct {
	FromTxn, ToTxn int
	From, To       TraceEvent
	Label          string
	Elided         int
}

// Edges are g's example cycle edge by edge, in cycle order, as the text
// report lists them.
func (g *Group) Edges() []GroupEdge {
	var out []GroupEdge
	for i := range g.Cycle {
		a, c := cycleEdge(g.Cycle, i)
		e := GroupEdge{FromTxn: i, ToTxn: (i + 1) % len(g.Cycle), From: a, To: c, Label: dotLabel(a, c)}
		if g.Elided > 0 && i+1 == g.ElidedAt {
			e.Elided, e.Label = g.Elided, g.elisionText()
		}
		out = append(out, e)
	}
	return out
}

// ShownGroups are the groups the text lists and the pictures draw: the
// first ShowGroups (all if 0).
func (r *Report) ShownGroups() []Group { return r.shownGroups() }
