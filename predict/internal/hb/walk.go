package hb

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// Walk follows the projections through a pass over the spool: each
// thread's vector clock in edges (its own entry is its position), whether
// it is inside a transaction, the clock each lock's last release passes
// on, and, when ForkVC is not nil, the clock of each thread's fork, from
// which the two-thread finders build a pattern's context.
type Walk struct {
	VC, LockVC [][]int64
	Open       []bool
	// ForkVC is, per forked thread, the clock of its fork (nil: not
	// kept). A second pass may be handed the first pass's, which holds
	// every fork from the start.
	ForkVC [][]int64
}

// NewWalk is a walk over k threads and locks locks before their first
// event; forks: it keeps the forks' clocks.
func NewWalk(k, locks int, forks bool) *Walk {
	w := &Walk{VC: make([][]int64, k), LockVC: make([][]int64, locks), Open: make([]bool, k)}
	for t := range w.VC {
		w.VC[t] = make([]int64, k)
	}
	if forks {
		w.ForkVC = make([][]int64, k)
	}
	return w
}

// Step moves thread ev.Thread on by ev and returns the edge of an access
// (the middle edge of a unary one: begin; access; end) or of the event.
func (w *Walk) Step(ev *trace.Event) int64 {
	t := ev.Thread
	at := w.VC[t][t]
	SyncBefore(w.VC, w.LockVC, ev)
	switch {
	case ev.Op == model.OpBegin:
		w.Open[t] = true
	case ev.Op == model.OpEnd:
		w.Open[t] = false
	case ev.Op.IsAccess() && !w.Open[t]:
		at++
	}
	w.VC[t][t] += proj.EdgesOf(ev, w.Open[t])
	SyncAfter(w.VC, w.LockVC, ev)
	if ev.Op == model.OpFork && w.ForkVC != nil {
		w.ForkVC[ev.Target] = append([]int64(nil), w.VC[ev.Target]...)
	}
	return at
}

// Context is C for threads t1 and t2: the join of their forks' clocks
// (what happens before both threads start).
func (w *Walk) Context(t1, t2 int) []int64 {
	c := make([]int64, len(w.VC))
	Join(c, w.ForkVC[t1])
	Join(c, w.ForkVC[t2])
	return c
}
