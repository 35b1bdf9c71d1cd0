package predict

import (
	"context"
	"errors"
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/predict/internal/pair"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// The two-thread question, pair by pair (docs/predict.md, "Every pair of
// threads on its own"): is there a run with a cycle of conflicts through
// transactions of two threads T1 and T2 only? For one pair it is decided
// by the lock-aware product (engine global) on the pair program: the
// reduced projection of T1 and T2 alone, with every other thread's events
// left out, and forks and joins of other threads dropped.
//
// Every run's events of T1 and T2, in their order, are a run of the pair
// program: it keeps T1's and T2's locks (mutual exclusion between them),
// their forks and joins of each other, and drops only constraints (other
// threads' locks, forks and joins); and a cycle through T1's and T2's
// transactions has the same edges there (access conflicts, and under lock
// edges release -> acquire, fork and join between the two: leaving other
// threads out can only make a lock edge direct). So a pair program with no
// violation proves that no run has a two-thread cycle through T1 and T2.
// Conversely a violation of the pair program is made a run of the trace by
// running first what must happen before T1 and T2 start (the context C of
// internal/pair/lock.go, in its observed order), then the pair's run; that run is
// verified like every other witness (internal/proj/gate.go), and one that fails leaves
// the pair undecided.

// pairVerdict is what pairProduct says of one pair.
type pairVerdict int

const (
	pairUndecided pairVerdict = iota // budget, size, or a witness verify refused
	pairNone                         // proved: no two-thread cycle
	pairViolation
)

// pairProductNote starts the reason of a pair's violation.
const pairProductNote = "two threads on their own (the lock-aware product of one pair)"

// pairsProved is the outcome of every pair: proved says every pair of
// threads with kept events has no two-thread cycle; busy is how many
// threads have kept events.
type pairsProved struct {
	proved bool
	busy   int
}

// maxPairPassEvents bounds the events the pairs' passes over the spool
// read in all (one pass per pair): 10⁸, about 2-4 s at the 20-40 ms a
// pass over 10⁶ events costs. Beyond it (28 pairs of 8 threads over
// 3.6·10⁶ events, 1,000 threads over a few hundred) the pairs are not
// tried.
const maxPairPassEvents = 100_000_000

// pairProducts decides the two-thread question for every pair of threads
// whose reduced projections are not empty: a violation of some pair is the
// answer; otherwise it reports whether every pair was proved free of
// two-thread cycles. Each pair gets an equal share of the state budget and
// is skipped (undecided) when its reduced projection is over the size
// guards. size is the reduced projection of all threads counted with the
// synchronisation kept (step 6's counting pass); nil counts it here.
func (p *predictor) pairProducts(size *proj.Reduced) (*Outcome, pairsProved, error) {
	if size == nil {
		var err error
		if size, err = p.s.Reduce(p.sp, p.u, p.o.Check.LockEdges, false, true); err != nil {
			return nil, pairsProved{}, err
		}
	}
	var busy []int
	for t, n := range size.Counts {
		if n > 0 {
			busy = append(busy, t)
		}
	}
	res := pairsProved{proved: true, busy: len(busy)}
	npairs := int64(len(busy) * (len(busy) - 1) / 2)
	if npairs*p.s.Events > maxPairPassEvents {
		return nil, pairsProved{busy: len(busy)}, nil
	}
	for i, t1 := range busy {
		for _, t2 := range busy[i+1:] {
			if p.ctx.Err() != nil {
				return nil, pairsProved{busy: len(busy)}, nil
			}
			states := size.Counts[t1] + size.Counts[t2] + int64(len(size.Counts))
			v, out, err := p.pairProduct(t1, t2, states, npairs)
			switch {
			case err != nil:
				return nil, pairsProved{}, err
			case v == pairViolation:
				return out, res, nil
			case v == pairUndecided:
				res.proved = false
			}
		}
	}
	return nil, res, nil
}

// pairProduct runs the global engine on the pair program of t1 and t2.
func (p *predictor) pairProduct(t1, t2 int, states, npairs int64) (pairVerdict, *Outcome, error) {
	guard := &proj.Reduced{States: states, Vars: len(p.s.Vars), Locks: len(p.s.Locks)}
	need := tableBytes(guard, len(p.s.Threads))
	if need > p.maxTable() || !budget.New(p.o.Check.MaxMemory).Fits(need) || p.defaultBudget() && states > DefaultMaxSize {
		return pairUndecided, nil, nil
	}
	keep := make([]bool, len(p.s.Threads))
	keep[t1], keep[t2] = true, true
	rd, err := p.s.ReduceThreads(p.sp, p.u, p.o.Check.LockEdges, false, false, keep)
	if err != nil {
		return pairUndecided, nil, err
	}
	eng, err := engines.Lookup("global")
	if err != nil {
		return pairUndecided, nil, err
	}
	opts := p.o.Check
	opts.IgnoreSync = false
	if p.defaultBudget() {
		opts.MaxStates = int(max(p.budget()/max(npairs, 1), 20_000))
	}
	if eng.Supports(rd.Program, opts) != nil {
		return pairUndecided, nil, nil
	}
	res, err := eng.Check(p.ctx, rd.Program, opts)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return pairUndecided, nil, nil
	case err != nil:
		return pairUndecided, nil, fmt.Errorf("engine global failed on threads %s and %s: %w",
			p.s.ThreadNames[t1], p.s.ThreadNames[t2], err)
	case res.Verdict == engines.Serializable:
		return pairNone, nil, nil
	case res.Verdict != engines.Violation || res.Witness == nil:
		return pairUndecided, nil, nil
	}
	pl, err := rd.Expand(res.Witness)
	if err != nil {
		return pairUndecided, nil, &proj.WitnessError{Engine: "global", Err: err}
	}
	pl, err = p.withContext(pl, t1, t2)
	if err != nil {
		return pairUndecided, nil, err
	}
	why := fmt.Sprintf("%s: threads %s and %s", pairProductNote, p.s.ThreadNames[t1], p.s.ThreadNames[t2])
	out, ok, err := p.checked(pl, why)
	if err != nil || !ok {
		return pairUndecided, nil, err
	}
	return pairViolation, out, nil
}

// withContext puts before a pair's run the context C of t1 and t2 (what
// happens before their forks, in its observed order).
func (p *predictor) withContext(pl proj.Plan, t1, t2 int) (proj.Plan, error) {
	w := pair.NewWalk(len(p.s.Threads), len(p.s.Locks))
	never := func() bool { return false }
	if _, err := proj.SpoolEach(p.sp, never, func(ev *trace.Event) bool { w.Step(ev); return true }); err != nil {
		return proj.Plan{}, err
	}
	segs, err := p.contextSegments(w.Context(t1, t2))
	if err != nil {
		return proj.Plan{}, err
	}
	pl.Segs = append(segs, pl.Segs...)
	return pl, nil
}
