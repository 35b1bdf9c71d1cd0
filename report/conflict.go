package report

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// transactions assigns every run event its transaction (SPEC §1): a begin
// opens one, its thread's events up to the matching end belong to it, and an
// access outside any transaction is a unary transaction of its own. A lock,
// fork or join event outside a transaction is a unary transaction only when
// lock edges make such events conflict; otherwise it is in none (-1), because
// it can be on no cycle. It returns the transaction of each event and, per
// transaction, its ordinal among its thread's transactions (1-based).
func transactions(run []model.Step, lockEdges bool) (txn []int, nth []int) {
	open := map[int32]int{} // thread -> its open transaction
	count := map[int32]int{}
	txn = make([]int, len(run))
	fresh := func(t int32) int {
		count[t]++
		nth = append(nth, count[t])
		return len(nth) - 1
	}
	for i, s := range run {
		cur, isOpen := open[s.Thread]
		switch op := s.Ev.Op; {
		case op == model.OpBegin:
			cur = fresh(s.Thread)
			open[s.Thread] = cur
		case op == model.OpEnd:
			if !isOpen {
				cur = fresh(s.Thread)
			}
			delete(open, s.Thread)
		case isOpen:
		case op.IsAccess() || (op.IsSync() && lockEdges):
			cur = fresh(s.Thread)
		default:
			cur = -1
		}
		txn[i] = cur
	}
	return txn, nth
}

// cycleTxns lists the transactions the cycle passes through, in cycle order:
// the transaction of each conflict's From event.
func cycleTxns(w *Witness, run []model.Step) []Txn {
	_, nth := transactions(run, w.LockEdges)
	var out []Txn
	for _, c := range w.Cycle {
		from := w.Run[c.From]
		t := Txn{ID: from.Txn, Thread: from.Thread}
		if from.Txn < 0 {
			t.Events = []int{c.From} // outside any transaction: the event alone
		} else {
			t.Nth = nth[from.Txn]
			for i, e := range w.Run {
				if e.Txn == from.Txn {
					t.Events = append(t.Events, i)
				}
			}
		}
		out = append(out, t)
	}
	return out
}

// conflictKind is why two events conflict (SPEC §1's relation D, and the
// lock, fork and join edges of --lock-edges).
type conflictKind uint8

const (
	sameThread conflictKind = iota
	dataConflict
	lockOrder
	forkOrder
	joinOrder
	unexplained // not a conflict of SPEC §1: printed plainly, never hidden
)

func kindOf(a, b model.Step) conflictKind {
	switch {
	case a.Thread == b.Thread:
		return sameThread
	case a.Ev.Op.IsAccess() && b.Ev.Op.IsAccess() && a.Ev.Target == b.Ev.Target &&
		(a.Ev.Op == model.OpWrite || b.Ev.Op == model.OpWrite):
		return dataConflict
	case a.Ev.Op == model.OpRelease && b.Ev.Op == model.OpAcquire && a.Ev.Target == b.Ev.Target:
		return lockOrder
	case a.Ev.Op == model.OpFork && a.Ev.Target == b.Thread:
		return forkOrder
	case b.Ev.Op == model.OpJoin && b.Ev.Target == a.Thread:
		return joinOrder
	}
	return unexplained
}

// explain puts conflict c in words, Elle-style: which event of which thread
// comes before which, and why they conflict when it is not a plain access
// conflict. Build has checked c's indices.
func explain(p *model.Program, run []model.Step, c model.Conflict) Conflict {
	a, b := run[c.From], run[c.To]
	out := Conflict{From: c.From, To: c.To}
	sa, sb := describe(p, a), describe(p, b)
	ta, _ := targetName(p, a.Ev)
	tb, _ := targetName(p, b.Ev)
	base := fmt.Sprintf("%s comes before %s", sa, sb)
	switch kindOf(a, b) {
	case sameThread:
		out.Words = base + " (program order of " + p.Threads[a.Thread].Name + ")"
		out.Label = "program order"
	case dataConflict:
		out.Words = base
		out.Label = fmt.Sprintf("%s %s → %s %s", a.Ev.Op, ta, b.Ev.Op, tb)
	case lockOrder:
		out.Words = base + fmt.Sprintf(" (lock %s passes from one to the other)", ta)
		out.Label = fmt.Sprintf("release %s → acquire %s", ta, tb)
	case forkOrder:
		out.Words = base + fmt.Sprintf(" (%s runs only after its fork)", ta)
		out.Label = "fork " + ta
	case joinOrder:
		out.Words = base + fmt.Sprintf(" (%s ends before its join)", tb)
		out.Label = "join " + tb
	default:
		out.Words = base
		out.Label = fmt.Sprintf("%s → %s", a.Ev.Op, b.Ev.Op)
	}
	return out
}

// describe names one event: "T1's read of x at bank.conc:7:5".
func describe(p *model.Program, s model.Step) string {
	d := p.Threads[s.Thread].Name + "'s " + s.Ev.Op.String()
	if t, _ := targetName(p, s.Ev); t != "" {
		d += " of " + t
	}
	if s.Ev.Pos.IsValid() {
		d += " at " + s.Ev.Pos.String()
	}
	return d
}
