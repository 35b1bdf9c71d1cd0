package predict

import (
	"fmt"
	"strings"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict/internal/blocks"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// conc predict --criterion view (docs/predict.md, "View serializability
// of two transactions"): whether some reordering makes two transactions
// of different threads non-view-serializable as a pair, by Wang and
// Stoller's block test (predict/internal/blocks), each pattern it keeps
// searched for a run, which is materialised and verified here.

// Criteria of Options.Criterion.
const (
	Conflict = "conflict"
	View     = "view"
)

// ViewEngine is the engine a view answer names (the JSON's engine).
const ViewEngine = "blocks"

// DefaultViewWork is the view decision's budget without --max-states or
// --timeout: the block test's comparisons and the grids' cells.
const DefaultViewWork = 200_000_000

// viewTries is how many runs of patterns are tried after the first for
// one whose other events write none of the pair's variables (so that
// conc monitor --criterion view flags the run as a whole too), and
// viewTryEvents how many of their events at most (a harness transaction's
// pair can take a whole trace's run).
// viewMoreWork bounds the search's work after the first run.
const (
	viewTries     = 16
	viewTryEvents = 4_000_000
	viewMoreWork  = 20_000_000
)

// viewUsage refuses what the view criterion does not take.
func viewUsage(o Options) error {
	switch {
	case o.Engine != "" && o.Engine != "auto":
		return &UsageError{"--criterion view decides with Wang and Stoller's block test: --engine does not apply"}
	case o.Check.LockEdges:
		return &UsageError{"--criterion view compares reads and final writes: --lock-edges (a conflict relation) does not apply"}
	case o.Check.IgnoreSync:
		return &UsageError{"--criterion view does not take --ignore-sync"}
	}
	return nil
}

// viewDecide is the view criterion's answer.
func (p *predictor) viewDecide() (*Outcome, error) {
	ix, err := blocks.Collect(p.ctx, p.s, p.sp, p.u)
	if err != nil {
		if p.ctx.Err() != nil {
			return viewUnknown(0, "deadline reached (--timeout)", engines.Deadline), nil
		}
		return nil, err
	}
	v := &viewSearch{p: p, ix: ix}
	res, err := blocks.Decide(p.s, p.sp, ix, blocks.Options{MaxWork: p.viewBudget(), MaxGrid: p.o.Tuning.ViewGrid, MoreWork: viewMoreWork,
		Stop: func() bool { return p.ctx.Err() != nil }},
		p.viewLead, v.accept)
	switch {
	case err != nil:
		return nil, err
	case v.best != nil:
		v.best.Result.Stats.States = res.Work
		if !v.clean {
			v.best.Result.Reason += viewWholeNote
		}
		return v.best, nil
	case res.Proved:
		out := &Outcome{Result: engines.Result{Engine: ViewEngine, Verdict: engines.Serializable, Reason: viewProof(res, ix.Inversion)}}
		out.Result.Stats.States = res.Work
		return out, nil
	}
	return p.viewUndecided(ix, res), nil
}

// viewBudget is the work budget: --max-states, else the default unless
// --timeout or --max-states 0 lifts it.
func (p *predictor) viewBudget() int64 {
	switch {
	case p.o.Check.MaxStates > 0:
		return int64(p.o.Check.MaxStates)
	case p.defaultBudget():
		if p.o.Tuning.ViewBudget > 0 {
			return p.o.Tuning.ViewBudget
		}
		return DefaultViewWork
	}
	return 0
}

// viewLead starts a pair's run as the two-thread patterns' runs start.
func (p *predictor) viewLead(ctx []int64, x, y int) ([]proj.Segment, error) {
	if err := p.freeContext(ctx, x, y); err != nil {
		return nil, err
	}
	return p.contextSegments(ctx)
}

// viewSearch keeps the best witness found: the first whose run no other
// event writes the pair's variables in, else the first.
type viewSearch struct {
	p      *predictor
	ix     *blocks.Index
	best   *Outcome
	clean  bool
	tries  int
	events int // the events of the runs tried
}

// accept materialises and verifies a pattern's run, and checks it
// against the pair criterion (a run that replays but does not break the
// pair is an internal error: the search's, never an answer).
func (v *viewSearch) accept(f blocks.Found) (ok, stop bool, err error) {
	p := v.p
	m, err := p.s.Materialise(p.sp, f.Plan, false, false)
	if err != nil {
		return false, false, err
	}
	if p.s.Replays(m) != nil {
		return false, false, nil
	}
	tx, ty := v.ix.Threads[f.In.X].Txns[f.TX], v.ix.Threads[f.In.Y].Txns[f.TY]
	bad, clean := blocks.PairView(m.Witness.Run, int(f.In.X), tx.Start, tx.End, int(f.In.Y), ty.Start, ty.End)
	if !bad {
		return false, false, &proj.WitnessError{Engine: ViewEngine, Err: fmt.Errorf("the pair of lines %d and %d is view-serializable in its run", tx.Begin, ty.Begin)}
	}
	v.tries++
	v.events += len(m.Witness.Run)
	if v.best == nil || clean && !v.clean {
		w := m.Witness
		var lines [4]int64
		for i, k := range []int{w.Cycle[0].From, w.Cycle[0].To, w.Cycle[1].From, w.Cycle[1].To} {
			lines[i] = w.Run[k].Ev.Pos.Line
		}
		res := engines.Result{Engine: ViewEngine, Verdict: engines.Violation, Witness: w, Reason: v.ix.Why(p.s, f, lines)}
		v.best, v.clean = &Outcome{Result: res, Program: m.Names}, clean
	}
	return true, v.clean || v.tries > viewTries || v.events > viewTryEvents, nil
}

// viewWholeNote ends a violation's reason when another transaction of
// the witness run writes a variable of the pair: the pair is still broken,
// but the run as a whole may be view-serializable.
const viewWholeNote = "; another transaction of this run writes a variable of the pair too, so the run as a whole " +
	"may be view-serializable (conc monitor --criterion view judges the whole run; docs/predict.md)"

// viewProofNote is what a serializable answer proves.
const viewProofNote = "no reordering makes two transactions of different threads non-view-serializable as a pair"

// viewProof words a serializable answer.
func viewProof(res blocks.Result, inversion string) string {
	if res.Patterns == 0 {
		return viewProofNote + " (Wang and Stoller's block test: no two blocks can interleave unserializably); " + viewNotChecked
	}
	why := fmt.Sprintf("%s (the block test kept %d patterns, and the grid of their two threads has no run for any", viewProofNote, res.Patterns)
	if inversion != "" {
		why += "; a potential deadlock, where the test alone is not exact: " + inversion
	}
	return why + "); " + viewNotChecked
}

// viewNotChecked is what the pair criterion leaves out.
const viewNotChecked = "cycles through three or more transactions are not checked (docs/predict.md)"

// viewUnknown is an unknown answer of the view criterion.
func viewUnknown(states int64, why string, lim engines.Limit) *Outcome {
	out := &Outcome{Result: engines.Result{Engine: ViewEngine, Verdict: engines.Unknown, Reason: why, Limit: lim}}
	out.Result.Stats.States = states
	return out
}

// viewUndecided words an unknown: a budget, or patterns whose runs the
// search may have missed, with the likely cause.
func (p *predictor) viewUndecided(ix *blocks.Index, res blocks.Result) *Outcome {
	switch res.Stop {
	case "deadline":
		return viewUnknown(res.Work, "deadline reached (--timeout)", engines.Deadline)
	case "budget":
		if p.o.Check.MaxStates > 0 {
			return viewUnknown(res.Work, fmt.Sprintf("no answer within --max-states %d states", p.o.Check.MaxStates), engines.StateBudget)
		}
		return viewUnknown(res.Work, fmt.Sprintf("no answer within predict's default budget of %d states (docs/predict.md): "+
			"--max-states or --timeout to search further", p.viewBudget()), engines.StateBudget)
	}
	var lost []string
	for _, l := range []blocks.Loss{blocks.LossMessages, blocks.LossContext, blocks.LossBound, blocks.LossRefused} {
		if n := res.Lost[l]; n > 0 {
			lost = append(lost, fmt.Sprintf("%d for %s", n, l))
		}
	}
	why := fmt.Sprintf("the block test kept %d patterns and no run was found for them, but searches may have missed one: %s",
		res.Patterns, strings.Join(lost, "; "))
	return viewUnknown(res.Work, why, engines.NoLimit)
}
