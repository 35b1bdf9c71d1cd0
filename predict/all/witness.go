package all

import (
	"context"

	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/internal/chain"
	"github.com/conc-dev/conc/predict/internal/nested"
	"github.com/conc-dev/conc/predict/internal/pair"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// A group's witness planned from its finders' patterns, over predict's
// projection, and verified one at a time (the batches are batch.go's).

// build tries group k's patterns finder by finder and returns the first
// witness that replays, or nil (the group is then dropped).
func (w *witnesses) build(k int) (*predict.Outcome, error) { return w.buildFrom(k, 0) }

// buildFrom is build from finder src on.
func (w *witnesses) buildFrom(k, src int) (*predict.Outcome, error) {
	g := w.groups[k]
	for ; src < nSources; src++ {
		if !g.has[src] {
			continue
		}
		out, ok, err := w.witnessOf(k, src)
		if err != nil {
			return nil, err
		}
		if ok {
			w.shown[k].Source = sourceNames[src]
			return out, nil
		}
	}
	w.shown[k].Dropped = true
	return nil, nil
}

// witnessOf plans and verifies the witness of group k's pattern of
// finder src.
func (w *witnesses) witnessOf(k, src int) (*predict.Outcome, bool, error) {
	if src == srcAnswer {
		return w.groups[k].pats[src].answer, true, nil
	}
	pl, ok, engine, why, dropSync, err := w.planOf(k, src)
	if err != nil || !ok {
		return nil, false, err
	}
	return w.x.Verified(pl, dropSync, engine, why)
}

// planOf is the plan of group k's pattern of finder src (not predict's
// answer, which is a witness already), with what its answer says: the engine, the
// reason, and whether the run drops the synchronisation; false when the
// plan cannot be made.
func (w *witnesses) planOf(k, src int) (pl proj.Plan, ok bool, engine, why string, dropSync bool, err error) {
	x, pat := w.x, &w.groups[k].pats[src]
	switch src {
	case srcScan:
		if sp, planned := w.scanPlans[k]; planned { // made ahead (locate.go)
			delete(w.scanPlans, k)
			return sp.pl, sp.ok, "profile", x.OptimisticNote(), x.Options().Check.IgnoreSync, nil
		}
		pl, ok, err = scanPlan(x, w.c, pat.scan)
		return pl, ok, "profile", x.OptimisticNote(), x.Options().Check.IgnoreSync, err
	case srcLock:
		pl, err = x.LockPlan(pat.lock)
		return pl, err == nil, "global", pair.LockedWhy(x.Summary(), pat.lock), false, err
	case srcNested:
		pl, ok, err = x.NestedPlan(pat.nested)
		return pl, ok, "global", nested.Why(x.Summary(), pat.nested), false, err
	}
	pl, ok, err = x.HBPlan(pat.hb)
	return pl, ok, "global", pair.HBNote, false, err
}

// scanPlan is Lemma 2's normal run for a pair the scan found (as
// predict's lock-free check plans it); false when its chain is not found
// again (the budget ran out).
func scanPlan(x *predict.Projection, c *chain.Chainer, pr chain.Interrupted) (proj.Plan, bool, error) {
	ls, ok, err := scanChain(c, pr)
	if err != nil || !ok {
		return proj.Plan{}, false, err
	}
	pl, err := c.Plan(x.Spool(), pr, ls)
	return pl, err == nil, err
}

// scanChain finds a pair's chain again, with its links' letters.
func scanChain(c *chain.Chainer, pr chain.Interrupted) ([]chain.Link, bool, error) {
	// The scan may have spent the budget: each witness gets its own
	// allowance for finding its chain again.
	if c.Resume(); c.Limit > 0 {
		c.Limit = c.States + witnessChainStates
	}
	if c.Ctx.Err() != nil {
		// The deadline (or the memory budget) stopped the scan after it
		// found this pair: finding its chain again is bounded work (the
		// allowance), so it is done whatever the deadline, or the scan's
		// violation would be lost.
		ctx, limit := c.Ctx, c.Limit
		c.Ctx, c.Limit = context.WithoutCancel(ctx), c.States+witnessChainStates
		defer func() { c.Ctx, c.Limit = ctx, limit }()
	}
	hops, ok := c.ChainTo(pr.Thread, pr.A, pr.B)
	if !ok {
		return nil, false, nil
	}
	ls, err := c.Links(pr, hops)
	return ls, err == nil, err
}

// witnessChainStates bounds the chain states spent on finding one
// group's chain again (the scan found it within the budget).
const witnessChainStates = 200_000
