package view

import (
	"fmt"
	"strings"

	"github.com/conc-dev/conc/model"
)

// Names spell the ids of a Result: Thread names a thread (the report's
// naming of numeric threads), the slices the trace's variables, locks and
// messages.
type Names struct {
	Thread            func(int32) string
	Vars, Locks, Msgs []string
}

// Names are r's names, threads as the trace spells them.
func (r *Result) Names() Names {
	return Names{Thread: func(t int32) string { return r.Threads[t] }, Vars: r.Vars, Locks: r.Locks, Msgs: r.Msgs}
}

// TxnWords names a transaction: "T1 line 5" (unary), "T1 lines 3-9",
// "T1 lines 3-open".
func (n Names) TxnWords(t Txn) string {
	switch {
	case t.Begin == t.End:
		return fmt.Sprintf("%s line %d", n.Thread(t.Thread), t.Begin)
	case t.End < 0:
		return fmt.Sprintf("%s lines %d-open", n.Thread(t.Thread), t.Begin)
	}
	return fmt.Sprintf("%s lines %d-%d", n.Thread(t.Thread), t.Begin, t.End)
}

// event is "T2's read of x at line 7", or "the initial value of x".
func (n Names) event(e Event) string {
	if e.Txn.Thread < 0 {
		return "the initial value of " + n.Vars[e.Var]
	}
	op := "read"
	if e.Op == model.OpWrite {
		op = "write"
	}
	return fmt.Sprintf("%s's %s of %s at line %d", n.Thread(e.Txn.Thread), op, n.Vars[e.Var], e.Line)
}

// Words are the obstacle in sentences: what no serial order keeps, then
// one line per precedence of its paths (indented by the caller).
func (n Names) Words(o Obstacle) []string {
	ev := o.Events
	switch o.Kind {
	case OwnWriteLost:
		return []string{fmt.Sprintf("%s reads %s at line %d after writing it at line %d, but the read sees %s: in a serial order it would see its own write",
			n.TxnWords(ev[0].Txn), n.Vars[o.Var], ev[0].Line, ev[2].Line, n.event(ev[1]))}
	case SplitRead:
		return []string{fmt.Sprintf("%s sees %s, but an earlier read of %s in %s, before any write of its own, saw %s: in a serial order both would see the same write",
			n.event(ev[0]), n.event(ev[1]), n.Vars[o.Var], n.TxnWords(ev[0].Txn), n.event(ev[2]))}
	case StaleRead:
		return []string{fmt.Sprintf("%s sees %s, which %s overwrites at line %d: in a serial order the read would see the later write",
			n.event(ev[0]), n.event(ev[1]), n.TxnWords(ev[1].Txn), ev[2].Line)}
	case Cycle:
		head := fmt.Sprintf("these precedences close a cycle (%s), so no serial order keeps them all:", n.chain(o.Paths[0]))
		return append([]string{head}, n.facts(o.Paths[0])...)
	case NoPlace:
		return n.noPlace(o)
	}
	return append([]string{"each of these writers must come before the write a read sees or after the read, and no way of placing them all keeps every read:"},
		n.facts(o.Paths[0])...)
}

func (n Names) noPlace(o Obstacle) []string {
	r, w, k := o.Events[0], o.Events[1], o.Events[2]
	out := []string{fmt.Sprintf("%s sees %s, so %s must come before %s or after %s; but %s comes before %s, and %s before %s:",
		n.event(r), n.event(w), n.event(k), n.TxnWords(w.Txn), n.TxnWords(r.Txn),
		n.TxnWords(w.Txn), n.TxnWords(k.Txn), n.TxnWords(k.Txn), n.TxnWords(r.Txn))}
	out = append(out, n.facts(o.Paths[0])...)
	return append(out, n.facts(o.Paths[1])...)
}

// chain is a cycle's transactions, "T1 lines 1-5 → T2 line 3 → T1 lines 1-5".
func (n Names) chain(fs []Fact) string {
	parts := make([]string, 0, len(fs)+1)
	for _, f := range fs {
		parts = append(parts, n.TxnWords(f.Before))
	}
	if len(fs) > 0 {
		parts = append(parts, n.TxnWords(fs[len(fs)-1].After))
	}
	return strings.Join(parts, " → ")
}

func (n Names) facts(fs []Fact) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = n.Fact(f)
	}
	return out
}

// Fact is one precedence in words: "BEFORE before AFTER: why"; an open
// choice is the two places its writer may take.
func (n Names) Fact(f Fact) string {
	if f.Kind == Choice && f.Open {
		return fmt.Sprintf("%s's write of %s at line %d before %s, or after %s (the read of %s at line %d sees the write at line %d)",
			n.TxnWords(f.Before), n.Vars[f.Var], f.Lines[0], n.TxnWords(f.After), n.TxnWords(f.Third), n.Vars[f.Var], f.Lines[2], f.Lines[1])
	}
	return fmt.Sprintf("%s before %s: %s", n.TxnWords(f.Before), n.TxnWords(f.After), n.why(f))
}

// why is the reason of a fact.
func (n Names) why(f Fact) string {
	x := func() string { return n.Vars[f.Var] }
	l := f.Lines
	switch f.Kind {
	case ProgramOrder:
		return "program order of " + n.Thread(f.Var)
	case ReadsFrom:
		return fmt.Sprintf("the read of %s at line %d sees the write at line %d", x(), l[1], l[0])
	case InitialRead:
		return fmt.Sprintf("the read of %s at line %d sees its initial value, and the other writes %s at line %d", x(), l[0], x(), l[1])
	case FinalWrite:
		return fmt.Sprintf("the write of %s at line %d is its final write, and the other writes %s at line %d", x(), l[1], x(), l[0])
	case BeforeFinal:
		return fmt.Sprintf("the read of %s at line %d sees another write than the final one at line %d", x(), l[0], l[1])
	case Choice:
		return n.choice(f)
	case SourceNext:
		return fmt.Sprintf("the read of %s at line %d sees an earlier write of the thread that writes %s again at line %d", x(), l[0], x(), l[1])
	case ReaderPrev:
		return fmt.Sprintf("the write of %s at line %d comes, in its thread, before the read at line %d of the other's write", x(), l[0], l[1])
	case LockPass:
		return fmt.Sprintf("lock %s passes from the release at line %d to the acquire at line %d (--lock-edges)", n.Locks[f.Var], l[0], l[1])
	case Fork:
		return fmt.Sprintf("the fork of %s at line %d comes before its first transaction (--lock-edges)", n.Thread(f.Var), l[0])
	case Join:
		return fmt.Sprintf("%s ends before its join at line %d (--lock-edges)", n.Thread(f.Var), l[1])
	case Message:
		return fmt.Sprintf("the post of %s at line %d comes before its wait at line %d (--lock-edges)", n.Msgs[f.Var], l[0], l[1])
	case Token:
		return fmt.Sprintf("the give of %s at line %d comes before the take at line %d that takes it (--lock-edges)", n.Msgs[f.Var], l[0], l[1])
	}
	return "conflict on " + x()
}

// choice words a choice fact: which place a writer took, and why.
func (n Names) choice(f Fact) string {
	x, l := n.Vars[f.Var], f.Lines
	why := "the search's choice"
	if f.Forced {
		why = "the other place would close a cycle"
	}
	place := "after the read"
	if containsLine(f.Before, l[0]) {
		place = "before the write the read sees"
	}
	return fmt.Sprintf("the read of %s at line %d sees the write at line %d, and the write of %s at line %d goes %s (%s)", x, l[2], l[1], x, l[0], place, why)
}

// containsLine tells whether line lies in t's lines.
func containsLine(t Txn, line int64) bool {
	return line >= t.Begin && (t.End < 0 || line <= t.End)
}
