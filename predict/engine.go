package predict

import (
	"context"
	"errors"
	"fmt"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all"
	"github.com/conc-dev/conc/engines/global"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// engine runs a program engine on the reduced projection and expands its
// witness back to the full one; an unknown keeps its reason apart
// (productAnswer). It also
// returns the reduced projection's size (its counting pass), which the
// pairs' products reuse.
func (p *predictor) engine(eng *engines.Engine, prefiltered bool) (*productAnswer, *proj.Reduced, error) {
	size, err := p.reduce(eng, true)
	if err != nil {
		return nil, nil, err
	}
	if u := p.tooLarge(eng, size); u != nil {
		return u, size, nil
	}
	res, rd, err := p.search(eng, prefiltered)
	switch {
	case errors.Is(err, errDeadline):
		return unknown(eng.Name, false, engines.Deadline, errDeadline.Error()), size, nil
	case err != nil:
		return nil, nil, err
	case res.Verdict == engines.Unknown:
		return p.gaveUp(res), size, nil
	}
	out, err := p.expanded(res, rd)
	if errors.Is(err, errBreaksOrdering) {
		if p.ordered(eng) { // it searched the orderings: its run must keep them
			return nil, nil, &proj.WitnessError{Engine: res.Engine, Err: err}
		}
		return unknown(eng.Name, true, engines.NoLimit, err.Error()), size, nil
	}
	return &productAnswer{out: out}, size, err
}

// ordered reports whether eng searches the reduced projection with
// docs/spec.md §3's orderings: the trace has them, and eng honours them
// (engines.Decides.Orderings), without lock edges, whose conflicts it
// does not model, and without --ignore-sync, which drops them.
func (p *predictor) ordered(eng *engines.Engine) bool {
	c := p.o.Check
	return eng.Decides.Orderings && p.s.Orderings && !c.LockEdges && !c.IgnoreSync
}

// reduce is the reduced projection eng searches (countOnly: its size),
// with docs/spec.md §3's orderings when eng honours them.
func (p *predictor) reduce(eng *engines.Engine, countOnly bool) (*proj.Reduced, error) {
	c := p.o.Check
	if p.ordered(eng) {
		return p.s.ReduceOrdered(p.sp, p.u, c.LockEdges, c.IgnoreSync, countOnly)
	}
	return p.s.Reduce(p.sp, p.u, c.LockEdges, c.IgnoreSync, countOnly)
}

// errDeadline is search's deadline: an unknown that says nothing of the
// two-thread searches.
var errDeadline = errors.New("deadline reached (--timeout)")

// tooLarge is the unknown of a reduced projection the engine is not
// started on: its tables would not fit the table limit or the memory
// budget, or, with the default budget, it has too many states.
func (p *predictor) tooLarge(eng *engines.Engine, size *proj.Reduced) *productAnswer {
	need := tableBytes(size, len(p.s.Threads))
	switch mem := budget.New(p.o.Check.MaxMemory); {
	case need > p.maxTable():
		return unknown(eng.Name, true, engines.TableLimit, fmt.Sprintf(
			"the reduced projection (%d states over %d shared variables) is too large for the %s engine "+
				"(about %d MiB of tables, limit %d MiB); --ignore-sync gives the optimistic answer",
			size.States, size.Vars, eng.Name, need>>20, p.maxTable()>>20))
	case !mem.Fits(need):
		return unknown(eng.Name, false, engines.MemoryBudget, mem.TooLarge(fmt.Sprintf(
			"the %s engine's tables for the reduced projection (%d states over %d shared variables)",
			eng.Name, size.States, size.Vars), need))
	case p.defaultBudget() && size.States > DefaultMaxSize:
		return unknown(eng.Name, true, engines.StateBudget, fmt.Sprintf(
			"the reduced projection has %d states (%d threads, shared locks: %d), more than the %s engine "+
				"is started on by default (%d; docs/predict.md): --max-states or --timeout to search anyway, "+
				"--ignore-sync for the optimistic answer",
			size.States, len(p.s.Threads), size.Locks, eng.Name, DefaultMaxSize))
	}
	return nil
}

// unknown is engine's unknown answer for the limit l; pairs: the
// two-thread searches' note follows its reason.
func unknown(engine string, pairs bool, l engines.Limit, why string) *productAnswer {
	res := engines.Result{Engine: engine, Verdict: engines.Unknown, Reason: why, Limit: l}
	return &productAnswer{out: &Outcome{Result: res}, pairs: pairs}
}

// search runs the engine on the reduced projection (under the default
// state budget unless the user gave limits). A deadline is an unknown.
func (p *predictor) search(eng *engines.Engine, prefiltered bool) (engines.Result, *proj.Reduced, error) {
	rd, err := p.reduce(eng, false)
	if err != nil {
		return engines.Result{}, nil, err
	}
	opts := p.o.Check
	if p.defaultBudget() {
		opts.MaxStates = int(p.budget())
	}
	opts.IgnoreSync = false // already dropped
	if err := eng.Supports(rd.Program, opts); err != nil {
		return engines.Result{}, nil, &UsageError{fmt.Sprintf("--engine %s: %v", eng.Name, err)}
	}
	check := eng.Check
	if prefiltered {
		check = global.NoPrefilter
	}
	res, err := check(p.ctx, rd.Program, opts)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return engines.Result{}, nil, errDeadline
	case err != nil:
		return engines.Result{}, nil, fmt.Errorf("engine %s failed: %w", eng.Name, err)
	case res.Engine == "":
		res.Engine = eng.Name
	}
	return res, rd, nil
}

// gaveUp is the engine's unknown: at its state limit under the default
// budget, that budget's reason; any other limit (the memory budget, the
// stack bound) keeps the engine's own (docs/spec.md §7).
func (p *predictor) gaveUp(res engines.Result) *productAnswer {
	if p.defaultBudget() && res.Limit == engines.StateBudget {
		res.Reason = fmt.Sprintf("no violation within predict's default budget of %d states "+
			"(docs/predict.md): --max-states or --timeout to search further, --ignore-sync for the optimistic answer",
			p.budget())
		res.Limit = engines.StateBudget
	}
	res.Witness = nil
	return &productAnswer{out: &Outcome{Result: res}, pairs: true}
}

// expanded is the engine's decided answer: serializable, or its witness
// expanded back to the full projection and verified.
func (p *predictor) expanded(res engines.Result, rd *proj.Reduced) (*Outcome, error) {
	switch {
	case res.Verdict != engines.Violation:
		res.Witness = nil
		return &Outcome{Result: res}, nil
	case res.Witness == nil:
		return nil, &proj.WitnessError{Engine: res.Engine, Err: errors.New("the violation has no witness")}
	}
	pl, err := rd.Expand(res.Witness)
	if err != nil {
		return nil, &proj.WitnessError{Engine: res.Engine, Err: err}
	}
	return p.violation(res, pl)
}
