package proj

import (
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// The reduced projection is what the lock-aware engines search. It drops,
// exactly (docs/predict.md gives the arguments):
//
//   - accesses no other thread conflicts with (relevance.go);
//   - acquires and releases of locks only one thread uses: they never block
//     and order nothing that program order does not;
//   - transactions left with no event that conflicts across threads: their
//     only edges are program order, which a cycle can short-cut. A begin is
//     emitted lazily, before the first such event of its transaction.
//
// Variables and locks are renumbered densely, so the engines' tables (and
// the profile prefilter's (2v)² relations) are over the relevant ones only.
// orig[t][q] is the edge of the full projection that reduced edge q stands
// for, which is how a witness of the reduced program is expanded back.
type Reduced struct {
	Program *model.Program
	Orig    [][]int64
	Full    []int64 // per thread: edges of its full projection
	// States (the reduced edges, and each thread's final state), vars and
	// locks size the program.
	States      int64
	Vars, Locks int
	// Counts: per thread, its reduced edges (countOnly).
	Counts []int64
}

// reducer holds the renumbering while the reduced program is built.
type reducer struct {
	s         *Summary
	u         *Users
	lockEdges bool
	dropSync  bool
	orderings bool    // keep docs/spec.md §3's orderings (an engine honours them)
	keep      []bool  // the threads kept (nil: all): predict/pair_product.go
	varID     []int32 // old variable -> new, -1 dropped
	lockID    []int32
	vars      []string
	locks     []string
}

// Reduce builds the reduced projection; with countOnly it only counts its
// states (reduced.states) and builds no program.
func (s *Summary) Reduce(sp *Spool, u *Users, lockEdges, dropSync, countOnly bool) (*Reduced, error) {
	return s.ReduceThreads(sp, u, lockEdges, dropSync, countOnly, nil)
}

// ReduceOrdered is Reduce keeping docs/spec.md §3's orderings, for an
// engine that honours them (engines.Decides.Orderings): dropped, they
// would only add runs, which the gate must then refuse.
func (s *Summary) ReduceOrdered(sp *Spool, u *Users, lockEdges, dropSync, countOnly bool) (*Reduced, error) {
	return s.reduce(sp, u, lockEdges, dropSync, countOnly, nil, true)
}

// ReduceThreads is reduce over the threads keep holds for (nil: all): the
// others' events, and forks and joins of them, are left out, so the
// program's runs are the kept threads' runs with every other thread out of
// the way (predict/pair_product.go).
func (s *Summary) ReduceThreads(sp *Spool, u *Users, lockEdges, dropSync, countOnly bool, keep []bool) (*Reduced, error) {
	return s.reduce(sp, u, lockEdges, dropSync, countOnly, keep, false)
}

func (s *Summary) reduce(sp *Spool, u *Users, lockEdges, dropSync, countOnly bool, keep []bool, orderings bool) (*Reduced, error) {
	rd := &reducer{s: s, u: u, lockEdges: lockEdges, dropSync: dropSync, keep: keep, orderings: orderings && !dropSync}
	rd.varID, rd.vars = renumber(len(s.Vars), s.Vars, func(x int) bool { return u.varRelevant(x) })
	rd.lockID, rd.locks = renumber(len(s.Locks), s.Locks, func(l int) bool { return !dropSync && s.SharedLock(int32(l)) })
	k := len(s.Threads)
	bs := make([]*AutoBuilder, k)
	pending := make([]pendingBegin, k)
	units := make([]fullUnits, k)
	for t := range bs {
		bs[t], pending[t], units[t] = &AutoBuilder{countOnly: countOnly}, pendingBegin{edge: -1}, fullUnits{firstEnd: -1}
	}
	r := sp.Reader()
	var ev trace.Event
	for {
		if err := r.Next(&ev); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		t := ev.Thread
		if keep != nil && !keep[t] {
			continue
		}
		rd.event(bs[t], &ev, &pending[t], units[t].pos, units[t].open)
		units[t].add(&ev)
	}
	pos := make([]int64, k) // edges of each thread's full projection
	for t, b := range bs {
		pos[t] = units[t].pos
		if (b.count > 0 || len(b.edges) > 0) || pos[t] == 0 || dropSync || keep != nil && !keep[t] {
			continue
		}
		units[t].standIn(b, lockEdges, countOnly)
	}
	if countOnly {
		out := &Reduced{Vars: len(rd.vars), Locks: len(rd.locks)}
		for _, b := range bs {
			out.States += b.count + 1
			out.Counts = append(out.Counts, b.count)
		}
		return out, nil
	}
	out := &Reduced{Program: s.Program(bs, rd.vars, rd.locks), Full: pos, Vars: len(rd.vars), Locks: len(rd.locks)}
	for _, b := range bs {
		out.Orig = append(out.Orig, b.orig)
	}
	return out, nil
}

// fullUnits follows a thread's full projection as the reduction reads it:
// its edges so far, whether a transaction is open, and the edges that
// close its first transaction and open its last (an access outside a
// transaction, and under lock edges a lock, fork or join event outside
// one, is a transaction of its own).
type fullUnits struct {
	pos                 int64
	open                bool
	firstEnd, lastStart int64 // firstEnd: -1 while the first is open
}

// add follows ev, the thread's next event.
func (u *fullUnits) add(ev *trace.Event) {
	if !u.open {
		u.lastStart = u.pos
	}
	switch ev.Op {
	case model.OpBegin:
		u.open = true
	case model.OpEnd:
		u.open = false
	}
	u.pos += EdgesOf(ev, u.open)
	if !u.open && u.firstEnd < 0 {
		u.firstEnd = u.pos - 1
	}
}

// standIn gives a thread with events but none kept what still orders
// them. Under lock edges a fork edge enters the thread's first
// transaction and a join edge leaves its last, whatever they hold: empty
// transactions stand for those two (one when they are one; program order
// links the first to the last), each mapped to its own full transaction,
// so that an expanded cycle passes from one to the other in program
// order. Without lock edges the thread still orders its fork before its
// join: one epsilon move stands for it.
func (u *fullUnits) standIn(b *AutoBuilder, lockEdges, countOnly bool) {
	begin, end := model.Event{Op: model.OpBegin, Target: -1}, model.Event{Op: model.OpEnd, Target: -1}
	switch {
	case lockEdges && (u.firstEnd < 0 || u.firstEnd == u.pos-1):
		b.add(begin, 0)
		b.add(end, u.pos-1)
	case lockEdges:
		b.add(begin, 0)
		b.add(end, u.firstEnd)
		b.add(begin, u.lastStart)
		b.add(end, u.pos-1)
	case !countOnly:
		b.add(model.Event{Op: model.OpSkip, Target: -1}, 0)
	}
}

// EdgesOf is how many projection edges ev makes (after open is updated for it).
func EdgesOf(ev *trace.Event, open bool) int64 {
	if ev.Op.IsAccess() && !open {
		return 3
	}
	return 1
}

// renumber keeps the names for which keep holds, densely.
func renumber(n int, names []string, keep func(int) bool) ([]int32, []string) {
	id := make([]int32, n)
	var kept []string
	for x := range id {
		id[x] = -1
		if keep(x) {
			id[x] = int32(len(kept))
			kept = append(kept, names[x])
		}
	}
	return id, kept
}

// pendingBegin is a begin not emitted yet: its edge in the full projection
// (-1 if none) and its line.
type pendingBegin struct {
	edge, line int64
}

// event adds ev's reduced edges to b; pos is the index of ev's first edge in
// the full projection, open whether a transaction was open before it.
func (rd *reducer) event(b *AutoBuilder, ev *trace.Event, pending *pendingBegin, pos int64, open bool) {
	at := model.Pos{File: rd.s.Name, Line: ev.Line}
	e := model.Event{Op: ev.Op, Target: -1, Pos: at}
	switch ev.Op {
	case model.OpBegin:
		*pending = pendingBegin{pos, ev.Line}
		return
	case model.OpEnd:
		if pending.edge < 0 {
			b.add(e, pos)
		}
		pending.edge = -1
		return
	case model.OpRead, model.OpWrite:
		if !rd.u.Relevant(ev.Thread, LetterOf(ev)) {
			return
		}
		e.Target = rd.varID[ev.Target]
		if !open {
			b.add(model.Event{Op: model.OpBegin, Target: -1, Pos: at}, pos)
			b.add(e, pos+1)
			b.add(model.Event{Op: model.OpEnd, Target: -1, Pos: at}, pos+2)
			return
		}
	case model.OpAcquire, model.OpRelease:
		if e.Target = rd.lockID[ev.Target]; e.Target < 0 {
			return
		}
	case model.OpFork, model.OpJoin:
		if rd.dropSync || rd.keep != nil && !rd.keep[ev.Target] {
			return
		}
		e.Target = ev.Target
	default: // docs/spec.md §3's orderings
		if e.Target = rd.ordering(ev); e.Target < 0 {
			return
		}
	}
	if open && pending.edge >= 0 && (ev.Op.IsAccess() || rd.lockEdges) {
		b.add(model.Event{Op: model.OpBegin, Target: -1, Pos: model.Pos{File: rd.s.Name, Line: pending.line}}, pending.edge)
		pending.edge = -1
	}
	b.add(e, pos)
}

// ordering is the reduced target of an ordering event, -1 when it is
// dropped: for an engine that does not honour the orderings, which they
// then only add runs to, and the gate checks the witness keeps them
// (docs/predict.md).
func (rd *reducer) ordering(ev *trace.Event) int32 {
	switch {
	case !rd.orderings:
		return -1
	case ev.Op == model.OpReadAcquire || ev.Op == model.OpReadRelease:
		return rd.lockID[ev.Target]
	}
	return ev.Target
}
