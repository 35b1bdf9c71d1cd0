package predict

import (
	"github.com/conc-dev/conc/predict/internal/pair"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// The two-thread patterns' steps of the cascade (docs/predict.md, "Two
// threads"), over package pair, which finds the patterns and plans their
// runs: here each plan is materialised and verified (checked), and a
// pattern whose witness is refused is no answer.

// pairs answers violation with the happens-before pattern
// (internal/pair/hb.go), or reports false (nothing found, or a witness
// verify refuses: never an answer).
func (p *predictor) pairs() (*Outcome, bool, error) {
	if !p.denseClocks() {
		return nil, false, nil
	}
	f, ok, err := pair.FindHB(p.s, p.sp, func() bool { return p.ctx.Err() != nil })
	if err != nil || !ok {
		return nil, false, err
	}
	pl, ok, err := p.pairPlan(f)
	if err != nil || !ok {
		return nil, false, err
	}
	return p.checked(pl, pair.HBWhy(p.s, f))
}

// pairPlan is a happens-before pattern's run, cut as the observed
// witness's trim cuts (internal/hb's Cut).
func (p *predictor) pairPlan(f pair.HBFind) (proj.Plan, bool, error) {
	return pair.PlanHB(f, p.hbCut)
}

// pairsLocked answers violation with the lock-aware pattern
// (internal/pair/lock.go), or reports false: its first pass (which keeps
// the index in p.pairIdx), or, with second, its second pass over that
// index.
func (p *predictor) pairsLocked(second bool) (*Outcome, bool, error) {
	stop := func() bool { return p.ctx.Err() != nil }
	var f pair.LockFind
	var ok bool
	var err error
	switch {
	case !second:
		p.pairIdx, f, ok, err = pair.IndexLocked(p.s, p.sp, stop)
	case p.pairIdx != nil:
		f, ok, err = pair.FindLocked(p.s, p.sp, p.pairIdx, stop)
		p.pairIdx = nil
	}
	if err != nil || !ok {
		return nil, false, err
	}
	return p.answerPairLock(f)
}

// answerPairLock is the verified witness of a lock-aware pattern.
func (p *predictor) answerPairLock(f pair.LockFind) (*Outcome, bool, error) {
	pl, err := p.pairLockPlan(f)
	if err != nil {
		return nil, false, err
	}
	return p.checked(pl, p.pairLockWhy(f))
}

// pairLockWhy is the reason of a lock-aware pattern's answer.
func (p *predictor) pairLockWhy(f pair.LockFind) string { return pair.LockedWhy(p.s, f) }

// pairLockPlan is a lock-aware pattern's run.
func (p *predictor) pairLockPlan(f pair.LockFind) (proj.Plan, error) {
	return pair.PlanLocked(p.s, p.sp, f)
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
	px := pair.NewIndexer(p.s)
	var f pair.LockFind
	var hit bool
	v, first, ok, err := p.observedViolationAlso(func(ev *trace.Event) bool {
		f, hit = px.Step(ev)
		return hit
	})
	switch {
	case err != nil:
		return nil, false, err
	case hit:
		// A pattern whose run verify refuses (one that breaks an ordering
		// of docs/spec.md §3, say) is no answer; its hit ended the pass
		// before the observed order's violation, which is looked for on
		// its own.
		if out, ok, err := p.answerPairLock(f); err != nil || ok {
			return out, ok, err
		}
		return p.observed()
	case ok:
		if out, ok, err := p.observedAnswer(v, first); err != nil || ok {
			return out, ok, err
		}
	}
	if px.Seen() == p.s.Events {
		p.pairIdx = px.Index()
		return nil, false, nil
	}
	return p.pairsLocked(false)
}

// freeContext frees a two-thread context of other threads' critical
// sections (internal/pair/context.go), in place.
func (p *predictor) freeContext(ctx []int64, t1, t2 int) error {
	return pair.FreeContext(p.s, p.sp, ctx, t1, t2)
}

// contextSegments is a context C as segments in its observed order.
func (p *predictor) contextSegments(ctx []int64) ([]proj.Segment, error) {
	return p.s.PrefixSegments(p.sp, ctx)
}
