package global

import (
	"context"
	"fmt"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/profile"
	"github.com/conc-dev/conc/model"
)

// MaxStack is the default bound on a recursive thread's stack in the
// global engine's bounded search (docs/spec.md §4's --max-stack): the question is
// undecidable for recursive threads with locks (Theorem 5).
const MaxStack = 8

// checkEvery is how many stored states pass between deadline checks.
const checkEvery = 1024

// stepsPerState is how many chained local moves --max-states allows
// per state it allows: chained moves are not stored, but they are work.
const stepsPerState = 64

func init() {
	engines.Register(&engines.Engine{
		Name: "global",
		Doc: "explicit-state search of the product of the threads, the lock owners and a " +
			"finite-state serializability monitor (Theorem 4), with partial-order reduction",
		Supports: supports,
		Check:    Check,
		// Theorem 4 for finite-state threads; recursive ones are searched
		// within --max-stack (undecidable with locks, Theorem 5). The
		// orderings of docs/spec.md §3 are honoured (orderings.go), without
		// --lock-edges.
		Decides: engines.Decides{Loops: true, Orderings: true},
		Auto:    2,
	})
}

// config switches the reductions of the global engine, so that tests
// can compare verdicts with each one on and off. Every reduction keeps the
// answer exact (docs/global.md gives the arguments).
type config struct {
	prefilter bool // no violation with locks dropped implies none with them (not with lock edges)
	subsets   bool // search pairs (then larger subsets) of threads first
	local     bool // fire moves that interfere with no other thread without an interleaving point
	por       bool // persistent sets (with the DFS-stack cycle proviso)
	compact   bool // untracked private letters; varint keys
}

// allReductions is the default: every reduction on.
var allReductions = config{prefilter: true, subsets: true, local: true, por: true, compact: true}

func Check(ctx context.Context, p *model.Program, opts engines.Options) (engines.Result, error) {
	return decide(ctx, p, opts, allReductions)
}

// decide is Theorem 4's decision procedure: search the product of the
// threads' automata, the lock owners and the monitor for a state where the
// monitor has seen a cycle. Exact for straight-line and regular threads; for
// recursive ones the stack is bounded by opts.MaxStack.
func decide(ctx context.Context, p *model.Program, opts engines.Options, cfg config) (engines.Result, error) {
	start := time.Now()
	if err := supports(p, opts); err != nil {
		return engines.Result{}, err
	}
	res := engines.Result{Engine: "global"}
	if opts.IgnoreSync {
		p = model.DropSync(p)
	}
	if cfg.prefilter && !opts.LockEdges {
		if ok, states := prefilterByProfile(ctx, p, opts.MaxMemory); ok {
			res.Verdict, res.Stats.States = engines.Serializable, states
			res.Stats.Millis = time.Since(start).Milliseconds()
			return res, nil
		}
	}
	s := newSearcher(ctx, p, opts, cfg)
	found := false
	for _, active := range s.subsetOrder() {
		if s.stopped != "" { // the tables did not fit the memory budget
			break
		}
		if found = s.search(active); found || s.stopped != "" {
			break
		}
	}
	res.Stats = engines.Stats{States: s.states, Events: s.events}
	switch {
	case found:
		w, err := s.witness(p)
		if err != nil {
			return engines.Result{}, err
		}
		res.Verdict, res.Witness = engines.Violation, w
		if opts.IgnoreSync {
			res.Reason = engines.OptimisticNote
		}
	case s.stopped != "":
		res.Verdict, res.Reason, res.Limit = engines.Unknown, s.stopped, s.limit
	case s.cutStack:
		res.Verdict, res.Reason, res.Limit = engines.Unknown, s.stackReason(p), engines.SearchBound
	default:
		res.Verdict = engines.Serializable
	}
	res.Stats.Millis = time.Since(start).Milliseconds()
	return res, nil
}

// stackReason explains an Unknown after a bounded search of recursive threads.
func (s *searcher) stackReason(p *model.Program) string {
	if p.HasSync() {
		return fmt.Sprintf("recursive threads with locks (undecidable); no violation within --max-stack %d", s.maxStack)
	}
	return fmt.Sprintf("recursive threads; no violation within --max-stack %d", s.maxStack)
}

// prefilterByProfile asks the profile engine about p without its lock, fork and
// join events. Dropping them only adds runs and (without lock edges) changes
// no conflict, so no violation there means none in p. It reports whether
// that settled the question, and the states the profile engine counted.
func prefilterByProfile(ctx context.Context, p *model.Program, maxMemory int64) (bool, int64) {
	res, err := profile.Check(ctx, model.DropSync(p), engines.Options{MaxMemory: maxMemory})
	if err != nil || res.Verdict != engines.Serializable {
		return false, 0
	}
	return true, res.Stats.States
}
