package predict

import (
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// The answers of the cascade's steps: a proof, or a plan that becomes a
// witness only if verify accepts it.

// locksProtect answers serializable when every transaction keeps its
// cross-thread accesses in one critical section of a lock that guards them
// (internal/proj/locksets.go); it reports false when that does not hold.
func (p *predictor) locksProtect(states int64) (*Outcome, bool, error) {
	ok, err := p.s.ProtectedByLocks(p.sp, p.u)
	if err != nil || !ok {
		return nil, false, err
	}
	return proved(states, locksProtectNote), true, nil
}

// proved is a serializable answer that an argument gave, not a search;
// states are those of the lock-free check that came first.
func proved(states int64, why string) *Outcome {
	res := engines.Result{Engine: "global", Verdict: engines.Serializable, Reason: why}
	res.Stats.States = states
	return &Outcome{Result: res}
}

// checked materialises a plan over the projection with its synchronisation
// and returns it as the answer if verify accepts it.
func (p *predictor) checked(pl proj.Plan, why string) (*Outcome, bool, error) {
	return p.verified(pl, false, "global", why)
}

// verified materialises a plan (dropSync: over the projection without
// its synchronisation) and returns it if verify accepts it.
func (p *predictor) verified(pl proj.Plan, dropSync bool, engine, why string) (*Outcome, bool, error) {
	m, err := p.s.Materialise(p.sp, pl, dropSync, p.o.Check.LockEdges)
	if err != nil {
		return nil, false, err
	}
	if p.s.Replays(m) != nil {
		return nil, false, nil
	}
	res := engines.Result{Engine: engine, Verdict: engines.Violation, Witness: m.Witness, Reason: why}
	return &Outcome{Result: res, Program: m.Names}, true, nil
}
