package report

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// transactions is the transaction of every run event and, per
// transaction, its ordinal among its thread's transactions.
func transactions(run []model.Step, lockEdges bool) (txn []int, nth []int) {
	threads := 0
	for _, s := range run {
		threads = max(threads, int(s.Thread)+1)
	}
	c := model.NewTxnCounter(lockEdges, threads)
	txn = make([]int, len(run))
	for i, s := range run {
		x, n, fresh := c.Step(s)
		if fresh {
			nth = append(nth, n)
		}
		txn[i] = x
	}
	return txn, nth
}

// cycleTxns lists the transactions the cycle passes through, in cycle order
// (the transaction of each conflict's From event), and gives the
// transaction of every cycle event. Two passes over the run and nothing
// kept per event: the first finds the cycle events' transactions, the
// second the events of those transactions.
func cycleTxns(p *model.Program, w *model.Witness) ([]Txn, map[int]int) {
	at := map[int]int{}
	nth := map[int]int{} // transaction -> its ordinal, for the cycle's
	for _, c := range w.Cycle {
		at[c.From], at[c.To] = -1, -1
	}
	c := model.NewTxnCounter(w.LockEdges, len(p.Threads)) // Build checked the threads
	for i, s := range w.Run {
		x, n, _ := c.Step(s)
		if _, ok := at[i]; ok {
			at[i], nth[x] = x, n
		}
	}
	members := map[int][]int{} // the cycle's From transactions' events
	for _, cf := range w.Cycle {
		if x := at[cf.From]; x >= 0 {
			members[x] = nil
		}
	}
	c = model.NewTxnCounter(w.LockEdges, len(p.Threads))
	for i, s := range w.Run {
		if x, _, _ := c.Step(s); x >= 0 {
			if evs, ok := members[x]; ok {
				members[x] = append(evs, i)
			}
		}
	}
	var out []Txn
	for _, cf := range w.Cycle {
		x := at[cf.From]
		t := Txn{ID: x, Thread: p.Threads[w.Run[cf.From].Thread].Name}
		if x < 0 {
			t.Events = []int{cf.From} // outside any transaction: the event alone
		} else {
			t.Nth, t.Events = nth[x], members[x]
		}
		out = append(out, t)
	}
	return out, at
}

// conflictKind is why two events conflict (docs/spec.md §1's relation D, and the
// lock, fork and join edges of --lock-edges).
type conflictKind uint8

const (
	sameThread conflictKind = iota
	dataConflict
	lockOrder
	forkOrder
	joinOrder
	unexplained // not a conflict of docs/spec.md §1: printed plainly, never hidden
)

func kindOf(a, b model.Step) conflictKind {
	return kindOfOps(a.Thread, a.Ev.Op, a.Ev.Target, b.Thread, b.Ev.Op, b.Ev.Target)
}

// kindOfOps is kindOf on two events of threads at and bt, with ops ao and
// bo on targets ax and bx, named by indices (a program's run) or by names
// (a trace's events: kindOfTrace).
func kindOfOps[N comparable](at N, ao model.Op, ax N, bt N, bo model.Op, bx N) conflictKind {
	switch {
	case at == bt:
		return sameThread
	case ao.IsAccess() && bo.IsAccess() && ax == bx && (ao == model.OpWrite || bo == model.OpWrite):
		return dataConflict
	case ao == model.OpRelease && bo == model.OpAcquire && ax == bx:
		return lockOrder
	case ao == model.OpFork && ax == bt:
		return forkOrder
	case bo == model.OpJoin && bx == at:
		return joinOrder
	}
	return unexplained
}

// explain puts conflict c in words, Elle-style: which event of which thread
// comes before which, and why they conflict when it is not a plain access
// conflict. Build has checked c's indices.
func explain(n Naming, p *model.Program, run []model.Step, c model.Conflict) Conflict {
	a, b := run[c.From], run[c.To]
	out := Conflict{From: c.From, To: c.To}
	out.Words, out.Label = explainPair(n, eventOf(p, a), eventOf(p, b), kindOf(a, b))
	return out
}

// namedEvent is an event by names, as a sentence shows it: a program's run
// event or a trace's (conc monitor), so both are put in the same words.
type namedEvent struct {
	thread, op, target, pos string
}

// eventOf names run event s of p.
func eventOf(p *model.Program, s model.Step) namedEvent {
	e := namedEvent{thread: p.Threads[s.Thread].Name, op: s.Ev.Op.String()}
	e.target, _ = targetName(p, s.Ev)
	if s.Ev.Pos.IsValid() {
		e.pos = textPos(s.Ev.Pos)
	}
	return e
}

// explainPair puts "a comes before b", two events that conflict for reason
// k, in a sentence and in a few words (a DOT edge's label), threads named
// by n.
func explainPair(n Naming, a, b namedEvent, k conflictKind) (words, label string) {
	base := describe(n, a) + " comes before " + describe(n, b)
	switch k {
	case sameThread:
		return base + " (program order of " + n.Thread(a.thread) + ")", "program order"
	case dataConflict:
		return base, fmt.Sprintf("%s %s → %s %s", a.op, a.target, b.op, b.target)
	case lockOrder:
		return base + fmt.Sprintf(" (lock %s passes from one to the other)", a.target),
			fmt.Sprintf("release %s → acquire %s", a.target, b.target)
	case forkOrder:
		return base + fmt.Sprintf(" (%s runs only after its fork)", n.Thread(a.target)), "fork " + a.target
	case joinOrder:
		return base + fmt.Sprintf(" (%s ends before its join)", n.Thread(b.target)), "join " + b.target
	}
	return base, fmt.Sprintf("%s → %s", a.op, b.op)
}

// describe names one event: "T1's read of x at bank.conc:7:5".
func describe(n Naming, e namedEvent) string {
	d := n.Thread(e.thread) + "'s " + e.op
	if e.target != "" {
		t := e.target
		if e.op == "fork" || e.op == "join" {
			t = n.Thread(t)
		}
		d += " of " + t
	}
	if e.pos != "" {
		d += " at " + e.pos
	}
	return d
}
