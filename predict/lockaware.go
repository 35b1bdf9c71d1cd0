package predict

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all"
	"github.com/conc-dev/conc/engines/global"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// lockAware decides a trace with locks, fork or join. For the global
// engine the streaming check runs first with the synchronisation dropped:
// without lock edges, no violation there means none with it (dropping locks,
// fork and join only adds runs and, without lock edges, no conflict). With
// shortcuts (--engine auto) two cheap witnesses are tried before the product
// search: the normal run that check found, if it happens to respect the
// synchronisation, and the observed order; between them, without lock
// edges, the critical-section proof (internal/proj/locksets.go) may answer serializable.
// Both witnesses are checked by verify.Prefix (locks, fork and join order,
// the cycle), so a shortcut never answers wrongly; it only answers sooner.
// The reason of a shortcut's answer says which one gave it.
func (p *predictor) lockAware(name string, shortcuts bool) (*Outcome, error) {
	eng, err := engines.Lookup(name)
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	prefiltered := name == "global" && !p.o.Check.LockEdges
	var states int64 // the lock-free check's, for the proofs' answers
	pairsToo := false
	if name == "global" {
		pl, found, c, err := p.lockFreeFor(shortcuts && !p.o.Check.IgnoreSync)
		states = c.States
		switch {
		case err != nil:
			return nil, err
		case prefiltered && !found && c.Stop == "":
			return proved(c.States, prefilterNote), nil
		case shortcuts && found && !c.Doomed:
			if out, ok, err := p.checked(pl, normalRunNote); err != nil || ok {
				return out, err
			}
		}
		// The two-thread patterns (pair_lock.go, pair_hb.go) only when the
		// lock-free check has a violation (their runs are runs of the
		// program without synchronisation, with the same cycle of access
		// conflicts, so otherwise they have none).
		pairsToo = found || c.Stop != ""
		if shortcuts && prefiltered {
			if out, ok, err := p.locksProtect(c.States); err != nil || ok {
				return out, err
			}
		}
	}
	if shortcuts {
		if out, ok, err := p.observedOrPairs(pairsToo); err != nil || ok {
			return out, err
		}
		if ok, err := p.forkPrefilter(); err != nil || ok {
			return proved(states, forkPrefilterNote), err
		}
		if out, ok, err := p.pairsLocked(true); err != nil || ok { // the index: only with pairsToo
			return out, err
		}
		if pairsToo || name != "global" {
			if out, ok, err := p.pairs(); err != nil || ok {
				return out, err
			}
		}
		if pairsToo { // step 5c: two threads and one variable, in linear time
			out, nr, err := p.nestedPairs()
			if err != nil || out != nil {
				return out, err
			}
			p.nested = nr
		}
		p.pairsTried = true
	}
	out, size, err := p.engine(eng, prefiltered)
	if err != nil || out.Result.Verdict != engines.Unknown || !shortcuts {
		return out, err
	}
	// The product of all threads gave up: each pair of threads on its own
	// (pair_product.go) may still find a violation, or prove that no
	// cycle goes through two threads only. Its sizes are the pairs' when
	// the synchronisation was kept.
	if p.o.Check.IgnoreSync {
		size = nil
	}
	pout, pp, err := p.pairProducts(size)
	switch {
	case err != nil || pout != nil:
		return pout, err
	case pp.proved && pp.busy <= 2:
		return proved(states, pairsProvedNote), nil
	case pp.proved:
		out.Result.Reason = twoThreadsNote + strings.TrimSuffix(out.Result.Reason, p.pairsNote())
	}
	return out, nil
}

// pairsProvedNote is the reason of a serializable answer that the pairs'
// products give on their own: at most two threads have events that can
// conflict across threads, so every cycle is a two-thread cycle.
const pairsProvedNote = "each pair of threads was checked on its own, and no third thread can take part in a cycle (docs/predict.md)"

// twoThreadsNote starts the reason of an unknown after every pair was
// proved free of two-thread cycles (pair_product.go).
const twoThreadsNote = "no violation involving two threads (every pair of threads decided on its own, docs/predict.md); " +
	"cycles through three or more threads were not decided: "

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

// The reasons the lock-aware path gives when a shortcut answered.
const (
	prefilterNote = "no violation even when locks, fork and join are ignored, so none with them"
	// forkPrefilterNote: forkscan.go.
	forkPrefilterNote = "no violation even when locks and joins are ignored (forks kept, and with --lock-edges their conflicts), so none with them"
	normalRunNote     = "the violating run was found ignoring locks, fork and join, and it obeys them too"
	locksProtectNote  = "every transaction keeps its cross-thread accesses in one critical section of a lock that guards them"
)

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

// engine runs a program engine on the reduced projection and expands its
// witness back to the full one. It also returns the reduced projection's
// size (its counting pass), which the pairs' products reuse.
func (p *predictor) engine(eng *engines.Engine, prefiltered bool) (*Outcome, *proj.Reduced, error) {
	size, err := p.s.Reduce(p.sp, p.u, p.o.Check.LockEdges, p.o.Check.IgnoreSync, true)
	if err != nil {
		return nil, nil, err
	}
	out, err := p.engineOn(eng, prefiltered, size)
	return out, size, err
}

// engineOn is engine once the reduced projection is counted.
func (p *predictor) engineOn(eng *engines.Engine, prefiltered bool, size *proj.Reduced) (*Outcome, error) {
	if need := tableBytes(size, len(p.s.Threads)); need > p.maxTable() {
		res := engines.Result{Engine: eng.Name, Verdict: engines.Unknown, Reason: fmt.Sprintf(
			"the reduced projection (%d states over %d shared variables) is too large for the %s engine "+
				"(about %d MiB of tables, limit %d MiB); --ignore-sync gives the optimistic answer",
			size.States, size.Vars, eng.Name, need>>20, p.maxTable()>>20) + p.pairsNote()}
		return &Outcome{Result: res}, nil
	}
	if mem := budget.New(p.o.Check.MaxMemory); !mem.Fits(tableBytes(size, len(p.s.Threads))) {
		res := engines.Result{Engine: eng.Name, Verdict: engines.Unknown, Reason: mem.TooLarge(fmt.Sprintf(
			"the %s engine's tables for the reduced projection (%d states over %d shared variables)",
			eng.Name, size.States, size.Vars), tableBytes(size, len(p.s.Threads)))}
		return &Outcome{Result: res}, nil
	}
	budget := p.defaultBudget()
	if budget && size.States > DefaultMaxSize {
		res := engines.Result{Engine: eng.Name, Verdict: engines.Unknown, Reason: fmt.Sprintf(
			"the reduced projection has %d states (%d threads, shared locks: %d), more than the %s engine "+
				"is started on by default (%d; docs/predict.md): --max-states or --timeout to search anyway, "+
				"--ignore-sync for the optimistic answer",
			size.States, len(p.s.Threads), size.Locks, eng.Name, DefaultMaxSize) + p.pairsNote()}
		return &Outcome{Result: res}, nil
	}
	rd, err := p.s.Reduce(p.sp, p.u, p.o.Check.LockEdges, p.o.Check.IgnoreSync, false)
	if err != nil {
		return nil, err
	}
	opts := p.o.Check
	if budget {
		opts.MaxStates = int(p.budget())
	}
	opts.IgnoreSync = false // already dropped
	if err := eng.Supports(rd.Program, opts); err != nil {
		return nil, &UsageError{fmt.Sprintf("--engine %s: %v", eng.Name, err)}
	}
	check := eng.Check
	if prefiltered {
		check = global.NoPrefilter
	}
	res, err := check(p.ctx, rd.Program, opts)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return &Outcome{Result: engines.Result{Engine: eng.Name, Verdict: engines.Unknown, Reason: "deadline reached (--timeout)"}}, nil
		}
		return nil, fmt.Errorf("engine %s failed: %w", eng.Name, err)
	}
	if res.Engine == "" {
		res.Engine = eng.Name
	}
	if budget && res.Verdict == engines.Unknown {
		res.Reason = fmt.Sprintf("no violation within predict's default budget of %d states "+
			"(docs/predict.md): --max-states or --timeout to search further, --ignore-sync for the optimistic answer",
			p.budget()) + p.pairsNote()
	} else if res.Verdict == engines.Unknown {
		res.Reason += p.pairsNote()
	}
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

// pairsNote says, in an unknown's reason, that the two-thread searches ran
// and found nothing, which proves nothing (docs/predict.md).
func (p *predictor) pairsNote() string {
	switch {
	case !p.pairsTried:
		return ""
	case p.nested.notNested != "":
		return "; the two-thread searches found no violation, which is no proof that there is none, and the linear " +
			"decision does not apply: the locking is not nested (" + p.nested.notNested + "; docs/predict.md)"
	case p.nested.proved && !p.o.Check.LockEdges:
		return "; " + oneVariableNote + "; the other two-thread searches found no violation, which is no proof that there is none (docs/predict.md)"
	}
	return "; the two-thread searches found no violation, which is no proof that there is none (docs/predict.md)"
}

// oneVariableNote is what the linear two-thread decision proves when it
// finds no pattern (pair_nested.go).
const oneVariableNote = "no cycle through two threads is on one variable (the linear decision under nested locking)"

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
	if p.o.budget > 0 {
		return p.o.budget
	}
	return DefaultMaxStates
}

// DefaultMaxTable bounds the tables the product search would build, in
// bytes (Options.maxTable).
const DefaultMaxTable = 2 << 30

func (p *predictor) maxTable() int64 {
	if p.o.maxTable > 0 {
		return p.o.maxTable
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
