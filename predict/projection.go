package predict

import (
	"context"
	"errors"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/chain"
	"github.com/conc-dev/conc/predict/internal/nested"
	"github.com/conc-dev/conc/predict/internal/pair"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// Projection is a trace after predict's first pass, under one request's
// Options: what `conc predict --all` (package predict/all) runs its
// finders over. It lends predict/all the pieces both commands share:
// predict's own decision (the cascade), the lock-free chain search under
// predict's budgets, the two-thread patterns' and step 5c's runs, and the
// gate every witness passes (internal/proj/gate.go). Its types from
// predict/internal are for the packages under predict only.
type Projection struct{ p *predictor }

// Project reads the trace into its projection, keeping each event's code
// location (the groups' signatures need them). A deadline that passes
// while reading is no error: the answer is then the unknown Predict
// gives, and no projection.
func Project(ctx context.Context, r *trace.Reader, o Options) (*Projection, *Outcome, error) {
	p, out, err := firstPass(ctx, r, o, true)
	if p == nil {
		return nil, out, err
	}
	return &Projection{p}, nil, nil
}

// firstPass reads the trace into a spool (locs: with each event's code
// location); a deadline while reading is Predict's unknown answer.
func firstPass(ctx context.Context, r *trace.Reader, o Options, locs bool) (*predictor, *Outcome, error) {
	r.Within(ctx) // the reader's own extra reading keeps the deadline too
	sp, err := proj.NewSpool(o.TempDir)
	if err != nil {
		return nil, nil, err
	}
	sp.Locs, sp.Shift = locs, o.Tuning.LineShift
	s, err := proj.Collect(ctx, r, sp)
	if err != nil {
		sp.Close()
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, deadlineWhileReading(r, o), nil
		}
		return nil, nil, err
	}
	return &predictor{ctx: ctx, s: s, u: s.Users(), sp: sp, o: o}, nil, nil
}

// Close removes the spool: no pass can read it after.
func (x *Projection) Close() error { return x.p.sp.Close() }

// Summary is the first pass's summary of the trace.
func (x *Projection) Summary() *proj.Summary { return x.p.s }

// Spool is the trace as the later passes read it.
func (x *Projection) Spool() *proj.Spool { return x.p.sp }

// Users are the threads that use each letter.
func (x *Projection) Users() *proj.Users { return x.p.u }

// Context is the request's: its deadline stops every pass.
func (x *Projection) Context() context.Context { return x.p.ctx }

// Options are the request's.
func (x *Projection) Options() Options { return x.p.o }

// Engine is the engine that decides the trace: profile for the streaming
// check, or the lock-aware cascade's (a UsageError when none can).
func (x *Projection) Engine() (string, error) {
	name, _, err := x.p.pickEngine()
	return name, err
}

// Decide is Predict's answer over the projection.
func (x *Projection) Decide() (*Outcome, error) { return x.p.decide() }

// Complete fills in what every answer reports of the trace (its events,
// whether it synchronises, the program's names) and the time since start.
func (x *Projection) Complete(out *Outcome, start time.Time) { complete(x.p.s, out, start) }

// Chainer is the lock-free chain search under predict's budgets.
func (x *Projection) Chainer() *chain.Chainer { return x.p.newChainer() }

// BudgetReason words a chain search's stop at predict's default budget.
func (x *Projection) BudgetReason(c *chain.Chainer) { x.p.budgetReason(c) }

// StoppedAt words c's stop for a violation's note: "no violation within
// predict's default budget …" is an unknown answer's reason, and read
// after `violation` it contradicts it.
func (x *Projection) StoppedAt(c *chain.Chainer) string {
	if c.StopBy == engines.StateBudget && x.p.defaultBudget() {
		return "the chain search stopped at " + chainBudget(c)
	}
	return c.Stop
}

// OptimisticNote is the reason of a violation found with --ignore-sync on
// a trace that synchronises ("" otherwise).
func (x *Projection) OptimisticNote() string { return x.p.optimisticNote() }

// DenseClocks reports whether the trace has few enough threads for the
// two-thread finders' vector clocks (ManyThreadsNote otherwise).
func (x *Projection) DenseClocks() bool { return x.p.denseClocks() }

// ManyThreadsNote says why the two-thread finders were not run.
const ManyThreadsNote = manyThreadsNote

// NestLimit is step 5c's first pass's limit.
func (x *Projection) NestLimit() int64 { return x.p.nestLimit() }

// HBPlan is a happens-before pattern's run, cut as the observed witness's
// trim cuts.
func (x *Projection) HBPlan(f pair.HBFind) (proj.Plan, bool, error) { return x.p.pairPlan(f) }

// LockPlan is a lock-aware pattern's run.
func (x *Projection) LockPlan(f pair.LockFind) (proj.Plan, error) { return x.p.pairLockPlan(f) }

// NestedPlan is a step 5c pattern's run, or false when none is found.
func (x *Projection) NestedPlan(f nested.Find) (proj.Plan, bool, error) { return x.p.nestPlan(f) }

// Verified materialises a plan (dropSync: over the projection without its
// synchronisation) into engine's violation with reason why, if it passes
// the gate; false if it does not.
func (x *Projection) Verified(pl proj.Plan, dropSync bool, engine, why string) (*Outcome, bool, error) {
	return x.p.verified(pl, dropSync, engine, why)
}

// UnaryWrappers marks the run's begin and end events that WriteSTD leaves
// out (the wrappers of a unary transaction), over a program of threads
// threads.
func UnaryWrappers(w *model.Witness, threads int) []bool { return unaryWrappers(w, threads) }
