package predict

import "github.com/conc-dev/conc/predict/internal/proj"

// Without --max-states or --timeout the lock-aware search gets a budget, so
// that predict always ends (docs/spec.md §7: a limit is unknown, exit 3): a reduced
// projection of more than DefaultMaxSize states (its events, and one final
// state a thread) is not searched, and the
// search stops after DefaultMaxStates states (and 64 chained moves per
// state): about 5-10 s and 1 GiB at most. On two threads sharing a lock the
// states grow as about n²/100 in the reduced events n, so a few thousand
// events is where the budget starts to bite; the table in docs/predict.md
// has the measurements.
const (
	DefaultMaxSize   = 100_000
	DefaultMaxStates = 500_000
)

// defaultBudget reports whether the default limits apply: the user gave
// no --max-states (an explicit 0 is Unbounded) and no --timeout (a
// deadline that is only the default time budget keeps them).
func (p *predictor) defaultBudget() bool {
	_, deadline := p.ctx.Deadline()
	return p.o.Check.MaxStates == 0 && (!deadline || p.o.DefaultDeadline) && !p.o.Unbounded
}

func (p *predictor) budget() int64 {
	if p.o.Tuning.Budget > 0 {
		return p.o.Tuning.Budget
	}
	return DefaultMaxStates
}

// DefaultMaxTable bounds the tables the product search would build, in
// bytes (Options.Tuning.MaxTable).
const DefaultMaxTable = 2 << 30

func (p *predictor) maxTable() int64 {
	if p.o.Tuning.MaxTable > 0 {
		return p.o.Tuning.MaxTable
	}
	return DefaultMaxTable
}

// tableBytes estimates what the global engine allocates before its search:
// per automaton state, a bit per shared letter, lock and forked thread for
// the partial-order reduction's future tables, once plus once per lock it
// refines (at most 16). On a projection of millions of events over
// thousands of shared variables that is gigabytes, so it is checked first.
func tableBytes(r *proj.Reduced, threads int) int64 {
	bits := int64(2*r.Vars + r.Locks + threads)
	words := (bits + 63) / 64
	return r.States * words * 8 * int64(1+min(r.Locks, 16))
}
