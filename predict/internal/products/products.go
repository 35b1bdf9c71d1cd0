// Package products is predict's pairs' products (docs/predict.md, "Every
// pair of threads on its own"): is there a run with a cycle of conflicts
// through transactions of two threads T1 and T2 only? For one pair it is
// decided by the lock-aware product (engine global) on the pair program:
// the reduced projection of T1 and T2 alone, with every other thread's
// events left out, and forks and joins of other threads dropped.
//
// Every run's events of T1 and T2, in their order, are a run of the pair
// program: it keeps T1's and T2's locks (mutual exclusion between them),
// their forks and joins of each other, and drops only constraints (other
// threads' locks, forks and joins); and a cycle through T1's and T2's
// transactions has the same edges there (access conflicts, and under lock
// edges release -> acquire, fork and join between the two: leaving other
// threads out can only make a lock edge direct). So a pair program with
// no violation proves that no run has a two-thread cycle through T1 and
// T2. Conversely a violation of the pair program is made a run of the
// trace by running first what must happen before T1 and T2 start (the
// context C: the join of their forks' clocks, in its observed order),
// then the pair's run; predict verifies that run like every other
// witness, and one that fails leaves the pair undecided.
//
// It imports nothing of predict but the projection layer and its clocks;
// predict passes in its guards and budget and verifies the runs.
package products

import (
	"context"
	"errors"
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// Input is what the pairs' products read: the trace's projection and
// predict's request, with its guards.
type Input struct {
	Ctx     context.Context
	Summary *proj.Summary
	Spool   *proj.Spool
	Users   *proj.Users
	// Check are the engine's options (lock edges, limits); the products
	// keep the synchronisation whatever Check.IgnoreSync says.
	Check engines.Options
	// Fits tells whether a pair program of this many states may be
	// searched (predict's table, memory and default-size guards).
	Fits func(states int64) bool
	// States is one pair's state budget when npairs pairs share it, or 0
	// for Check's own limit.
	States func(npairs int64) int
}

// Verdict is what the product says of one pair.
type Verdict int

const (
	Undecided Verdict = iota // budget, size, or a run verify refused
	None                     // proved: no two-thread cycle
	Violation
)

// Proved is the outcome of every pair: Proved says every pair of threads
// with kept events has no two-thread cycle; Busy is how many threads
// have kept events.
type Proved struct {
	Proved bool
	Busy   int
}

// Accept is predict's verification of a pair's run: whether it is a
// witness (then the pairs stop).
type Accept func(t1, t2 int, pl proj.Plan) (bool, error)

// maxPassEvents bounds the events the pairs' passes over the spool read
// in all (one pass per pair): 10⁸, about 2-4 s at the 20-40 ms a pass
// over 10⁶ events costs. Beyond it (28 pairs of 8 threads over 3.6·10⁶
// events, 1,000 threads over a few hundred) the pairs are not tried.
const maxPassEvents = 100_000_000

// Decide decides the two-thread question for every pair of threads whose
// reduced projections are not empty, until accept takes a pair's run; it
// says whether one did, and otherwise whether every pair was proved free
// of two-thread cycles. Each pair gets an equal share of the state budget
// and is undecided when its reduced projection is over the guards. size
// is the reduced projection of all threads counted with the
// synchronisation kept.
func Decide(in Input, size *proj.Reduced, accept Accept) (bool, Proved, error) {
	var busy []int
	for t, n := range size.Counts {
		if n > 0 {
			busy = append(busy, t)
		}
	}
	res := Proved{Proved: true, Busy: len(busy)}
	npairs := int64(len(busy) * (len(busy) - 1) / 2)
	if npairs*in.Summary.Events > maxPassEvents {
		return false, Proved{Busy: len(busy)}, nil
	}
	for i, t1 := range busy {
		for _, t2 := range busy[i+1:] {
			if in.Ctx.Err() != nil {
				return false, Proved{Busy: len(busy)}, nil
			}
			states := size.Counts[t1] + size.Counts[t2] + int64(len(size.Counts))
			v, err := Pair(in, t1, t2, states, npairs, accept)
			switch {
			case err != nil:
				return false, Proved{}, err
			case v == Violation:
				return true, res, nil
			case v == Undecided:
				res.Proved = false
			}
		}
	}
	return false, res, nil
}

// Pair runs the global engine on the pair program of t1 and t2 (states:
// its size, for the guards) and hands a violation's run to accept.
func Pair(in Input, t1, t2 int, states, npairs int64, accept Accept) (Verdict, error) {
	if !in.Fits(states) {
		return Undecided, nil
	}
	s := in.Summary
	keep := make([]bool, len(s.Threads))
	keep[t1], keep[t2] = true, true
	rd, err := s.ReduceThreads(in.Spool, in.Users, in.Check.LockEdges, false, false, keep)
	if err != nil {
		return Undecided, err
	}
	res, err := search(in, rd, npairs)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return Undecided, nil
	case err != nil:
		return Undecided, fmt.Errorf("engine global failed on threads %s and %s: %w", s.ThreadNames[t1], s.ThreadNames[t2], err)
	case res.Verdict == engines.Serializable:
		return None, nil
	case res.Verdict != engines.Violation || res.Witness == nil:
		return Undecided, nil
	}
	pl, err := rd.Expand(res.Witness)
	if err != nil {
		return Undecided, &proj.WitnessError{Engine: "global", Err: err}
	}
	if pl, err = withContext(in, pl, t1, t2); err != nil {
		return Undecided, err
	}
	if ok, err := accept(t1, t2, pl); err != nil || !ok {
		return Undecided, err
	}
	return Violation, nil
}

// search is the global engine on the pair program, under the pair's
// share of the budget; an engine that does not support it is undecided.
func search(in Input, rd *proj.Reduced, npairs int64) (engines.Result, error) {
	eng, err := engines.Lookup("global")
	if err != nil {
		return engines.Result{}, err
	}
	opts := in.Check
	opts.IgnoreSync = false
	if n := in.States(npairs); n > 0 {
		opts.MaxStates = n
	}
	if eng.Supports(rd.Program, opts) != nil {
		return engines.Result{Verdict: engines.Unknown}, nil
	}
	return eng.Check(in.Ctx, rd.Program, opts)
}

// withContext puts before a pair's run the context C of t1 and t2 (what
// happens before their forks, in its observed order).
func withContext(in Input, pl proj.Plan, t1, t2 int) (proj.Plan, error) {
	s := in.Summary
	w := hb.NewWalk(len(s.Threads), len(s.Locks), true)
	never := func() bool { return false }
	if _, err := proj.SpoolEach(in.Spool, never, func(ev *trace.Event) bool { w.Step(ev); return true }); err != nil {
		return proj.Plan{}, err
	}
	segs, err := s.PrefixSegments(in.Spool, w.Context(t1, t2))
	if err != nil {
		return proj.Plan{}, err
	}
	pl.Segs = append(segs, pl.Segs...)
	return pl, nil
}
