package predict

import (
	"fmt"
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// pairs answers violation with the two-thread reordering of pair_hb.go, or
// reports false (nothing found, or a witness verify refuses: never an
// answer).
func (p *predictor) pairs() (*Outcome, bool, error) {
	if !p.denseClocks() {
		return nil, false, nil
	}
	f, ok, err := findPair(p.s, p.sp, func() bool { return p.ctx.Err() != nil })
	if err != nil || !ok {
		return nil, false, err
	}
	pl, ok, err := p.pairPlan(f)
	if err != nil || !ok {
		return nil, false, err
	}
	why := fmt.Sprintf("%s (thread %s's transaction interrupted by thread %s, line %d moved after line %d)",
		pairNote, p.s.ThreadNames[f.t1], p.s.ThreadNames[f.t2], f.lineE2, f.lineF2)
	return p.checked(pl, why)
}

// pairNote starts the reason of the two-thread reordering's answer.
const pairNote = "two-thread reordering of the observed order"

// pairPlan is the run of pair_hb.go: the observed order cut to what
// happens before f2 or before e2, then e2.
func (p *predictor) pairPlan(f pairFind) (proj.Plan, bool, error) {
	e1, e2 := proj.Ref{Thread: f.t1, Edge: f.e1}, proj.Ref{Thread: f.t1, Edge: f.e2}
	f1, f2 := proj.Ref{Thread: f.t2, Edge: f.f1}, proj.Ref{Thread: f.t2, Edge: f.f2}
	cycle := [][2]proj.Ref{{e1, f1}}
	if !f.sameF {
		cycle = append(cycle, [2]proj.Ref{f1, f2}) // program order within T2
	}
	cycle = append(cycle, [2]proj.Ref{f2, e2})
	need, ok, err := p.hbCut([][2]proj.Ref{{{Thread: f.t1, Edge: f.e2 - 1}, f2}}, f.lineF2)
	if err != nil || !ok || need[f.t1] > f.e2 || need[f.t2] <= f.f2 {
		return proj.Plan{}, false, err
	}
	return proj.Plan{Cycle: cycle, Observed: &proj.ObservedCut{Cut: need, Tail: &e2}}, true, nil
}

// pairsLocked answers violation with the lock-aware pattern of
// pair_lock.go, or reports false: its first pass (which keeps the index in
// p.pairIdx), or, with second, its second pass over that index.
func (p *predictor) pairsLocked(second bool) (*Outcome, bool, error) {
	stop := func() bool { return p.ctx.Err() != nil }
	var f pairLockFind
	var ok bool
	var err error
	switch {
	case !second:
		p.pairIdx, f, ok, err = firstPairLock(p.s, p.sp, stop)
	case p.pairIdx != nil:
		f, ok, err = secondPairLock(p.s, p.sp, p.pairIdx, stop)
		p.pairIdx = nil
	}
	if err != nil || !ok {
		return nil, false, err
	}
	return p.answerPairLock(f)
}

// answerPairLock is the verified witness of a lock-aware pattern.
func (p *predictor) answerPairLock(f pairLockFind) (*Outcome, bool, error) {
	pl, err := p.pairLockPlan(f)
	if err != nil {
		return nil, false, err
	}
	return p.checked(pl, p.pairLockWhy(f))
}

// pairLockWhy is the reason of a lock-aware pattern's answer.
func (p *predictor) pairLockWhy(f pairLockFind) string {
	return fmt.Sprintf("%s (thread %s's access at line %d moved between thread %s's accesses of its variable, before line %d)",
		pairLockNote, p.s.ThreadNames[f.t2], f.lineF, p.s.ThreadNames[f.t1], f.lineE2)
}

// pairLockNote starts the reason of the lock-aware two-thread answer.
const pairLockNote = "two threads through their locks"

// pairLockPlan is pair_lock.go's run as segments: the context C in its
// observed order, T2 to y0, T1 to just before e2, T2 through f, T1's e2.
func (p *predictor) pairLockPlan(f pairLockFind) (proj.Plan, error) {
	f.ctx = slices.Clone(f.ctx)
	if err := p.freeContext(f.ctx, f.t1, f.t2); err != nil {
		return proj.Plan{}, err
	}
	segs, err := p.contextSegments(f.ctx)
	if err != nil {
		return proj.Plan{}, err
	}
	if f.p1 > 0 { // T1 waits at its lock-free point p1, T2 runs on to z
		segs = append(segs, proj.Segment{Thread: f.t2, Upto: f.y0 - 1}, proj.Segment{Thread: f.t1, Upto: f.p1 - 1}, proj.Segment{Thread: f.t2, Upto: f.z - 1}, proj.Segment{Thread: f.t1, Upto: f.e2})
	} else {
		segs = append(segs, proj.Segment{Thread: f.t2, Upto: f.y0 - 1}, proj.Segment{Thread: f.t1, Upto: f.e2 - 1}, proj.Segment{Thread: f.t2, Upto: f.f}, proj.Segment{Thread: f.t1, Upto: f.e2})
	}
	e1, e2, a := proj.Ref{Thread: f.t1, Edge: f.e1}, proj.Ref{Thread: f.t1, Edge: f.e2}, proj.Ref{Thread: f.t2, Edge: f.f}
	return proj.Plan{Segs: segs, Cycle: [][2]proj.Ref{{e1, a}, {a, e2}}}, nil
}

// observedOrPairs is the observed-order shortcut (observed.go) and, with
// pairsToo, the lock-aware pattern's first pass in the same pass over the
// spool: whichever finds first answers (a trace whose observed order
// violates early is not read to its end for the pattern, nor one with an
// early pattern for the monitor). A first pass that read everything keeps
// its index for the second (p.pairIdx); one cut short by the monitor is
// run again on its own when the observed witness does not replay.
func (p *predictor) observedOrPairs(pairsToo bool) (*Outcome, bool, error) {
	if !pairsToo || !p.denseClocks() {
		return p.observed()
	}
	px := newPairIndexer(p.s)
	var f pairLockFind
	var hit bool
	v, first, ok, err := p.observedViolationAlso(func(ev *trace.Event) bool {
		f, hit = px.step(ev)
		return hit
	})
	switch {
	case err != nil:
		return nil, false, err
	case hit:
		return p.answerPairLock(f)
	case ok:
		if out, ok, err := p.observedAnswer(v, first); err != nil || ok {
			return out, ok, err
		}
	}
	if px.seen == p.s.Events {
		p.pairIdx = px.indexed()
		return nil, false, nil
	}
	return p.pairsLocked(false)
}

// contextSegments is a context C (each thread's first ctx[t] edges) as
// segments in its observed order.
func (p *predictor) contextSegments(ctx []int64) ([]proj.Segment, error) {
	var segs []proj.Segment
	err := p.s.EachEdge(p.sp, ctx, false, func(t int, q int64, _ model.Event) {
		if n := len(segs); n > 0 && segs[n-1].Thread == t {
			segs[n-1].Upto = q
			return
		}
		segs = append(segs, proj.Segment{Thread: t, Upto: q})
	})
	return segs, err
}
