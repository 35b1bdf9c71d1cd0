package pair

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

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

// Walk is hb.Walk with the threads' lock states: the lock-aware
// pattern's passes, and the pairs' products, which build their contexts
// from its forks' clocks.
type Walk struct {
	*hb.Walk
	locks []lockPos
}

// NewWalk is a walk over k threads and locks locks before their first
// event.
func NewWalk(k, locks int) *Walk {
	return &Walk{Walk: hb.NewWalk(k, locks, true), locks: make([]lockPos, k)}
}

// Step is hb.Walk.Step, following the locks too.
func (w *Walk) Step(ev *trace.Event) int64 {
	at := w.Walk.Step(ev)
	w.locks[ev.Thread].step(ev, w.VC[ev.Thread][ev.Thread])
	return at
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

// firstHit steps a pass over the spool until step reports a pattern: the
// pattern, whether one was found, and whether the pass read the whole
// spool (stop ends it early: a deadline).
func firstHit[F any](sp *proj.Spool, stop func() bool, step func(*trace.Event) (F, bool)) (F, bool, bool, error) {
	var f F
	var hit bool
	whole, err := proj.SpoolEach(sp, stop, func(ev *trace.Event) bool {
		f, hit = step(ev)
		return !hit
	})
	return f, hit && err == nil, whole, err
}
