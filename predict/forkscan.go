package predict

import "github.com/conc-dev/conc/predict/internal/forkorder"

// Step 5's prefilter with fork order (package predict/internal/forkorder):
// the lock-free check again, locks and joins dropped but fork order kept.

// forkPrefilter reports whether the lock-free check with fork order finds
// no violation (a proof of serializability without lock edges); false also
// when it does not apply or ran out of budget.
func (p *predictor) forkPrefilter() (bool, error) {
	in := forkorder.Input{Summary: p.s, Spool: p.sp, Users: p.u, LockEdges: p.o.Check.LockEdges, MaxStates: p.o.Check.MaxStates}
	if p.defaultBudget() {
		in.Budget = p.chainBudget()
	}
	return forkorder.Prefilter(p.ctx, in)
}
