package pair

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// hbWalk follows the projections' edges, open transactions and vector
// clocks (in edges) through a pass: the happens-before pattern's (hb.go)
// and, inside Walk, the lock-aware pattern's (lock.go).
type hbWalk struct {
	vc, lockVC [][]int64
	open       []bool
}

func newHBWalk(k, locks int) hbWalk {
	w := hbWalk{vc: make([][]int64, k), lockVC: make([][]int64, locks), open: make([]bool, k)}
	for t := range w.vc {
		w.vc[t] = make([]int64, k)
	}
	return w
}

// step moves thread ev.Thread on by ev and returns the edge of an access
// (the middle edge of a unary one: begin; access; end) or of the event.
func (w *hbWalk) step(ev *trace.Event) int64 {
	t := ev.Thread
	at := w.vc[t][t]
	hb.SyncBefore(w.vc, w.lockVC, ev)
	switch {
	case ev.Op == model.OpBegin:
		w.open[t] = true
	case ev.Op == model.OpEnd:
		w.open[t] = false
	case ev.Op.IsAccess() && !w.open[t]:
		at++
	}
	w.vc[t][t] += proj.EdgesOf(ev, w.open[t])
	hb.SyncAfter(w.vc, w.lockVC, ev)
	return at
}

// lockPos is one thread's lock state in a pass: the locks it holds, the
// locks acquired since it last held none and that point's edge, its
// nesting depth and whether it has joined a thread yet. Locks from
// bigLock on share the set's last bit (held while any of them is), so
// the sets only ever say more than the truth: a schedule they allow may
// still be refused by the verification, never one they forbid wrongly
// allowed.
type lockPos struct {
	held, acq proj.LockSet
	big       int // big locks held
	depth     int
	y0        int64
	joined    bool
}

const bigLock = 63

func (lp *lockPos) step(ev *trace.Event, edges int64) {
	switch l := ev.Target; {
	case ev.Op == model.OpAcquire:
		if l >= bigLock {
			l = bigLock
			lp.big++
		}
		lp.held.Add(l)
		lp.acq.Add(l)
		lp.depth++
	case ev.Op == model.OpRelease:
		if l >= bigLock {
			if lp.big--; lp.big <= 0 {
				lp.big = 0
				lp.held.Remove(bigLock)
			}
		} else {
			lp.held.Remove(l)
		}
		if lp.depth--; lp.depth <= 0 {
			lp.depth, lp.acq, lp.y0, lp.big, lp.held = 0, 0, edges, 0, 0
		}
	case ev.Op == model.OpJoin:
		lp.joined = true
	}
}

// Walk is hbWalk with the threads' lock states and their forks' clocks:
// the lock-aware pattern's passes, and the passes of predict's other
// two-thread finders (the nested decision, the pairs' products), which
// read its clocks and its forks' clocks to build their contexts.
type Walk struct {
	hbWalk
	locks []lockPos
	// ForkVC is, per forked thread, the clock of its fork. A second pass
	// may be handed the first pass's, which holds every fork from the
	// start.
	ForkVC [][]int64
}

// NewWalk is a walk over k threads and locks locks before their first
// event.
func NewWalk(k, locks int) *Walk {
	return &Walk{hbWalk: newHBWalk(k, locks), locks: make([]lockPos, k), ForkVC: make([][]int64, k)}
}

// Step is hbWalk.step, following the forks and the locks too.
func (w *Walk) Step(ev *trace.Event) int64 {
	t := ev.Thread
	at := w.hbWalk.step(ev)
	if ev.Op == model.OpFork {
		w.ForkVC[ev.Target] = append([]int64(nil), w.vc[ev.Target]...)
	}
	w.locks[t].step(ev, w.vc[t][t])
	return at
}

// Clocks are the threads' vector clocks, in edges (clock t's own entry is
// thread t's position). The slices are the walk's, updated in place by
// every step and never replaced.
func (w *Walk) Clocks() [][]int64 { return w.vc }

// Open says, per thread, whether it is inside a transaction; like Clocks,
// the walk's own slice.
func (w *Walk) Open() []bool { return w.open }

// Context is C for threads t1 and t2: the join of their forks' clocks.
func (w *Walk) Context(t1, t2 int) []int64 {
	c := make([]int64, len(w.vc))
	hb.Join(c, w.ForkVC[t1])
	hb.Join(c, w.ForkVC[t2])
	return c
}

// contextOf is Context(t1, t2)[u], without building C.
func (w *Walk) contextOf(t1, t2, u int) int64 {
	var c int64
	for _, f := range [2][]int64{w.ForkVC[t1], w.ForkVC[t2]} {
		if f != nil {
			c = max(c, f[u])
		}
	}
	return c
}
