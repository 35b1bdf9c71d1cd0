package model

import (
	"fmt"
	"slices"
	"sort"
)

// With lock edges a lock, fork or join event outside a transaction is a
// unary transaction (docs/spec.md §1), and a witness lists it as one:
// begin, the event, end, all three at the event's position, exactly as the
// language compiles a bare read or write. The automata do not have those
// begin and end edges (the same program is checked with and without lock
// edges), so one move along the sync edge emits all three (Witness). The
// engines search with the bare event, which the conflict graph already
// treats as a unary transaction, and put the witness into this form last.

// WrapUnarySync puts w into the documented form: with w.LockEdges, each
// lock, fork or join event of the run that lies outside a transaction of
// its thread gets a begin before it and an end after it, and the cycle's
// indices follow their events. Without lock edges w is left as it is. It
// rewrites w.Run in place (growing it once) and returns w. Every thread of
// the run has its path in w.Paths.
func WrapUnarySync(w *Witness) *Witness {
	if !w.LockEdges {
		return w
	}
	bare := bareSync(w.Run, len(w.Paths))
	if len(bare) == 0 {
		return w
	}
	old := len(w.Run)
	run := slices.Grow(w.Run, 2*len(bare))[:old+2*len(bare)]
	// Back to front, so that every step moves to a slot it has not read yet.
	j, k := len(run)-1, len(bare)-1
	for i := old - 1; i >= 0; i-- {
		if k >= 0 && bare[k] == i {
			st := run[i]
			run[j] = Step{Thread: st.Thread, Ev: Event{Op: OpEnd, Target: -1, Pos: st.Ev.Pos}}
			run[j-1] = st
			run[j-2] = Step{Thread: st.Thread, Ev: Event{Op: OpBegin, Target: -1, Pos: st.Ev.Pos}}
			j, k = j-3, k-1
			continue
		}
		run[j] = run[i]
		j--
	}
	w.Run = run
	for c := range w.Cycle {
		w.Cycle[c].From = wrappedIndex(bare, w.Cycle[c].From)
		w.Cycle[c].To = wrappedIndex(bare, w.Cycle[c].To)
	}
	return w
}

// bareSync lists, in order, the run indices of lock, fork and join events
// outside any transaction of their thread: those that begin a unary
// transaction of their own under lock edges (TxnCounter). The run's threads
// are below threads.
func bareSync(run []Step, threads int) []int {
	var bare []int
	c := NewTxnCounter(true, threads)
	for i, st := range run {
		if _, _, fresh := c.Step(st); fresh && st.Ev.Op.IsSync() {
			bare = append(bare, i)
		}
	}
	return bare
}

// wrappedIndex is where run event i moves when the events at the indices
// bare (sorted) are wrapped: two more slots for each one before it, one for
// its own begin.
func wrappedIndex(bare []int, i int) int {
	c := sort.SearchInts(bare, i)
	if c < len(bare) && bare[c] == i {
		return i + 2*c + 1
	}
	return i + 2*c
}

// UnwrapUnarySync is WrapUnarySync's inverse, for code that reworks a
// witness move by move (one run event a non-epsilon move): it returns a
// copy of w whose run has the begin and end that wrap a sync event taken
// outside a transaction dropped, told apart from the program's own begin
// and end edges by replaying the paths in p. A witness without them (or
// without lock edges) comes back as it is. The error says where the run
// does not follow the paths.
func UnwrapUnarySync(p *Program, w *Witness) (*Witness, error) {
	if !w.LockEdges {
		return w, nil
	}
	for k, c := range w.Cycle { // indices into the run, moved below
		if min(c.From, c.To) < 0 || max(c.From, c.To) >= len(w.Run) {
			return nil, fmt.Errorf("cycle pair %d (%d -> %d): index out of the run (length %d)", k, c.From, c.To, len(w.Run))
		}
	}
	drop, err := unaryWrappers(p, w)
	if err != nil || len(drop) == 0 {
		return w, err
	}
	out := &Witness{Paths: w.Paths, LockEdges: true, Run: make([]Step, 0, len(w.Run)-len(drop))}
	moved := make([]int, len(w.Run)) // old index -> new
	for i, st := range w.Run {
		if drop[i] { // a wrapper stands for the event it wraps
			moved[i] = len(out.Run)
			if st.Ev.Op == OpEnd {
				moved[i]--
			}
			continue
		}
		moved[i] = len(out.Run)
		out.Run = append(out.Run, st)
	}
	for _, c := range w.Cycle {
		out.Cycle = append(out.Cycle, Conflict{From: moved[c.From], To: moved[c.To]})
	}
	return out, nil
}

// unaryWrappers finds the run indices of the begin and end events that wrap
// a sync move taken outside a transaction, thread by thread along its path.
func unaryWrappers(p *Program, w *Witness) (map[int]bool, error) {
	idx := make([][]int, len(p.Threads)) // per thread: its run indices
	for i, st := range w.Run {
		if st.Thread < 0 || int(st.Thread) >= len(idx) {
			return nil, fmt.Errorf("run event %d: no thread %d", i, st.Thread)
		}
		idx[st.Thread] = append(idx[st.Thread], i)
	}
	drop := map[int]bool{}
	for t, path := range w.Paths {
		if t >= len(p.Threads) {
			return nil, fmt.Errorf("witness has %d paths for %d threads", len(w.Paths), len(p.Threads))
		}
		if err := threadWrappers(p.Threads[t].Auto, path, w.Run, idx[t], drop); err != nil {
			return nil, fmt.Errorf("thread %s: %v", p.Threads[t].Name, err)
		}
	}
	return drop, nil
}

// threadWrappers walks one thread's path against its run events (at, in
// order), marking in drop the begin and end around each sync move made
// outside a transaction, where the run has them.
func threadWrappers(a *Automaton, path []Move, run []Step, at []int, drop map[int]bool) error {
	depth, k := 0, 0
	next := func(op Op) bool { return k < len(at) && run[at[k]].Ev.Op == op }
	for m, mv := range path {
		if int(mv.From) >= len(a.Out) || mv.Edge < 0 || int(mv.Edge) >= len(a.Out[mv.From]) {
			return fmt.Errorf("move %d: no edge %d at state %d", m, mv.Edge, mv.From)
		}
		op := a.Out[mv.From][mv.Edge].Ev.Op
		switch {
		case op == OpSkip:
			continue
		case op.IsSync() && depth == 0 && next(OpBegin):
			drop[at[k]] = true
			k++
			if !next(op) {
				return fmt.Errorf("move %d: a begin, but not its %s, is the thread's next run event", m, op)
			}
			k++
			if !next(OpEnd) {
				return fmt.Errorf("move %d: the unary transaction of its %s has no end", m, op)
			}
			drop[at[k]] = true
		case op == OpBegin:
			depth++
		case op == OpEnd:
			depth = max(depth-1, 0)
		}
		k++
	}
	if k < len(at) {
		return fmt.Errorf("the path emits %d events, the run has %d", k, len(at))
	}
	return nil
}
