package predict

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/chain"
	"github.com/conc-dev/conc/predict/internal/pair"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/predict/internal/tuning"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/verify"
)

// Options configure one prediction.
type Options struct {
	// Engine is "auto" (or ""), "profile", or the name of a registered
	// engine that decides programs ("global", "brute").
	Engine string
	// Check carries docs/spec.md §4's switches and limits (--lock-edges,
	// --ignore-sync, --max-states, …).
	Check engines.Options
	// TempDir holds the spool ("" is the system's temporary directory).
	TempDir string
	// Unbounded turns the default limits off (an explicit --max-states 0).
	Unbounded bool
	// DefaultDeadline says that the context's deadline is the command's
	// default time budget, not a --timeout the user gave: the default state
	// limits still apply.
	DefaultDeadline bool
	// Criterion is Conflict ("" too) or View: whether a reordering makes
	// two transactions non-view-serializable as a pair (view.go).
	Criterion string

	// Tuning shrinks predict's own limits so that the tests reach them
	// with small traces; the zero value is the command's. Its type is
	// internal: only predict's packages set it.
	Tuning tuning.Limits
}

// Outcome is a prediction: the engine's result, with its witness over the
// projection program (DropSync'd under --ignore-sync), and Program, the
// projection's names (every thread, variable and lock; the report is built
// from it). Program's threads have empty automata: a witness can run to
// millions of events, and its paths through the projection are fixed (a
// straight-line thread takes its edges in order).
type Outcome struct {
	Result  engines.Result
	Program *model.Program
	// Sync reports lock, fork or join events in the trace.
	Sync bool
}

// UsageError is a request the trace cannot satisfy (exit 2), such as
// --engine profile on a trace with locks.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Predict decides whether some reordering of the trace's per-thread
// projections (docs/spec.md §3) is not conflict-serializable. The trace is read
// once, into a spool on disk; without locks, fork and join (or with
// IgnoreSync) the streaming profile check decides it (Lemma 3 over
// first/last transactions, memory O(threads × variables)); with them the
// reduced projection program goes to the lock-aware engine.
func Predict(ctx context.Context, r *trace.Reader, o Options) (*Outcome, error) {
	start := time.Now()
	if o.Criterion == View {
		if err := viewUsage(o); err != nil {
			return nil, err
		}
	}
	p, out, err := firstPass(ctx, r, o, false)
	if p == nil {
		if out != nil && o.Criterion == View {
			out.Result.Engine = ViewEngine
		}
		return out, err
	}
	defer p.sp.Close()
	if o.Criterion == View {
		out, err = p.viewDecide()
	} else {
		out, err = p.decide()
	}
	if err != nil {
		return nil, err
	}
	complete(p.s, out, start)
	return out, nil
}

// deadlineWhileReading is the unknown of a deadline that passed before the
// trace was read: the names read so far, no verdict.
func deadlineWhileReading(r *trace.Reader, o Options) *Outcome {
	part := &proj.Summary{Name: r.Name(), ThreadNames: r.Threads().Names(), Vars: r.Vars().Names(), Locks: r.Locks().Names()}
	return &Outcome{Program: part.Program(make([]*proj.AutoBuilder, len(part.ThreadNames)), part.Vars, part.Locks),
		Result: engines.Result{Verdict: engines.Unknown, Engine: engineName(o.Engine),
			Reason: "deadline reached while reading the trace (--timeout)", Limit: engines.Deadline}}
}

// complete fills in what every outcome reports of the trace: whether it
// synchronises, its events, the time taken, and the program's names.
func complete(s *proj.Summary, out *Outcome, start time.Time) {
	out.Sync = s.Sync
	out.Result.Stats.Events = s.Events
	out.Result.Stats.Millis = time.Since(start).Milliseconds()
	if out.Program == nil {
		out.Program = s.Program(make([]*proj.AutoBuilder, len(s.Threads)), s.Vars, s.Locks)
	}
}

// engineName is what the report names for a request cut short: auto
// would have started with the profile check.
func engineName(e string) string {
	if e == "" || e == "auto" {
		return "profile"
	}
	return e
}

// DefaultChainStates is the lock-free chain search's budget without
// --max-states or --timeout. Beyond 16 threads a state is a map entry and
// costs about 1.5-2 µs with the successors it tries (BenchmarkChainStates),
// so the budget ends the search in about 4 s and 130 MB (30 threads that
// chain every way and never close).
const DefaultChainStates = 2_000_000

// chainBudget is the lock-free search's default state budget.
func (p *predictor) chainBudget() int64 {
	if p.o.Tuning.ChainBudget > 0 {
		return p.o.Tuning.ChainBudget
	}
	return DefaultChainStates
}

// predictor is one prediction after the first pass.
type predictor struct {
	ctx context.Context
	s   *proj.Summary
	u   *proj.Users
	sp  *proj.Spool
	o   Options
	// pairsTried: the two-thread searches ran and found nothing.
	pairsTried bool
	// nested: what the linear two-thread decision concluded (step 5c).
	nested nestedResult
	// pairIdx: the lock-aware pattern's index, between its passes.
	pairIdx *pair.Index
}

// decide runs the engine pickEngine picks: the streaming profile check for
// profile, else the lock-aware path.
func (p *predictor) decide() (*Outcome, error) {
	name, shortcuts, err := p.pickEngine()
	if err != nil {
		return nil, err
	}
	if name == "profile" {
		return p.streaming()
	}
	return p.lockAware(name, shortcuts)
}

// pickEngine is the engine that decides: the registry's choice for a trace
// (its projections are straight-line threads; shortcuts: chosen, not
// named) unless one is named.
func (p *predictor) pickEngine() (name string, shortcuts bool, err error) {
	sync := p.s.Sync && !p.o.Check.IgnoreSync
	name = p.o.Engine
	if name == "" || name == "auto" {
		eng := engines.Pick(engines.Shape{Class: model.StraightLine, LoopFree: true, Sync: sync})
		if eng == nil {
			return "", false, &UsageError{"no engine decides this trace"}
		}
		return eng.Name, true, nil
	}
	if eng, err := engines.Lookup(name); err == nil && sync && eng.Decides.LockFree {
		return "", false, &UsageError{engines.SyncError(name, "a trace").Error()}
	}
	return name, false, nil
}

// streaming is the profile engine over the spool.
func (p *predictor) streaming() (*Outcome, error) {
	pl, found, c, err := p.lockFree()
	res := engines.Result{Engine: "profile", Verdict: engines.Serializable}
	res.Stats.States = c.States
	switch {
	case err != nil:
		return nil, err
	case c.Stop != "":
		res.Verdict, res.Reason, res.Limit = engines.Unknown, c.Stop, c.StopBy
		return &Outcome{Result: res}, nil
	case !found:
		return &Outcome{Result: res}, nil
	}
	return p.violation(res, pl)
}

// lockFree runs the scan and, when it finds an interrupted transaction,
// plans Lemma 2's normal run for it (over the projection without sync).
func (p *predictor) lockFree() (proj.Plan, bool, *chain.Chainer, error) {
	return p.lockFreeFor(false)
}

// lockFreeFor is lockFree; lockedRun: the plan is for the trace with its
// locks (step 2), and none is made when it cannot respect them (c.Doomed,
// internal/chain/chain_doom.go; found stays true).
func (p *predictor) lockFreeFor(lockedRun bool) (proj.Plan, bool, *chain.Chainer, error) {
	c := p.newChainer()
	c.LockedRun = lockedRun
	pr, found, err := c.DeepScan(p.sp, p.u, p.o.Tuning.Deepen)
	p.budgetReason(c)
	if err != nil || !found || c.Stop != "" {
		return proj.Plan{}, false, c, err
	}
	hops, ok := c.ChainTo(pr.Thread, pr.A, pr.B)
	if !ok && c.Stop != "" {
		return proj.Plan{}, false, c, nil
	}
	if !ok {
		return proj.Plan{}, false, c, fmt.Errorf("predict: internal error: no chain from %d to %d in thread %d", pr.A, pr.B, pr.Thread)
	}
	ls, err := c.Links(pr, hops)
	if err != nil {
		return proj.Plan{}, false, c, err
	}
	pl, err := c.Plan(p.sp, pr, ls)
	return pl, err == nil, c, err
}

// newChainer is the lock-free chain search under predict's budgets.
func (p *predictor) newChainer() *chain.Chainer {
	c := chain.New(p.ctx, p.s, p.o.Check.MaxStates)
	c.Mem = budget.New(p.o.Check.MaxMemory)
	if p.defaultBudget() {
		c.Limit = p.chainBudget()
	}
	return c
}

// budgetReason words a stop at the state limit, under the default
// budget, as a stop at that budget.
func (p *predictor) budgetReason(c *chain.Chainer) {
	if c.StopBy == engines.StateBudget && p.defaultBudget() {
		c.Stop = "no violation within " + chainBudget(c)
	}
}

// chainBudget names the default chain budget c stopped at, and the flags
// that lift it.
func chainBudget(c *chain.Chainer) string {
	return fmt.Sprintf("predict's default budget of %d chain states "+
		"(docs/predict.md): --max-states or --timeout to search further", c.Limit)
}

// violation materialises an engine's plan into the outcome's witness,
// which must replay (internal/proj/gate.go).
func (p *predictor) violation(res engines.Result, pl proj.Plan) (*Outcome, error) {
	m, err := p.s.Materialise(p.sp, pl, p.o.Check.IgnoreSync, p.o.Check.LockEdges)
	if err != nil {
		return nil, err
	}
	if err := p.s.Replays(m); err != nil {
		if oe := (*verify.OrderingError)(nil); errors.As(err, &oe) {
			return nil, errBreaksOrdering
		}
		return nil, &proj.WitnessError{Engine: res.Engine, Err: err}
	}
	res.Verdict, res.Witness = engines.Violation, m.Witness
	if note := p.optimisticNote(); note != "" {
		res.Reason = note
	}
	return &Outcome{Result: res, Program: m.Names}, nil
}

// errBreaksOrdering is an engine's violating run that breaks an ordering
// of the trace (docs/spec.md §3) that the engine did not search (the
// pairs' products, lock edges): no answer, not an engine's error (but an
// engine's error when it searched them: engine.go).
var errBreaksOrdering = errors.New("the violating run found breaks a read lock or message ordering of the trace " +
	"(docs/spec.md §3), which the search does not honour")

// optimisticNote is the reason a violation found with --ignore-sync
// gives when the trace has synchronisation it dropped ("" otherwise).
func (p *predictor) optimisticNote() string {
	if p.o.Check.IgnoreSync && p.s.Sync {
		return engines.OptimisticNote
	}
	return ""
}
