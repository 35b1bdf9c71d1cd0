package brute

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// Defaults of the brute-force engine's bounds (docs/spec.md §4's --max-depth and
// --max-stack). Twelve events per thread cover three iterations of a loop
// body of one two-access transaction (begin, two accesses, end), which is
// enough for the hand-sized programs brute is meant for; eight stack symbols
// cover eight nested calls of a recursive thread. The depth bound applies
// only to programs with loops or recursion: a loop-free program
// (model.Program.LoopFree) is explored whole unless --max-depth is given.
const (
	MaxDepth = 12
	MaxStack = 8
)

// checkEvery is how many states brute explores between deadline checks.
const checkEvery = 4096

func init() {
	engines.Register(&engines.Engine{
		Name: "brute",
		Doc: "enumerate lock-valid interleavings with the exact conflict graph " +
			"(loops bounded by --max-depth events per thread, recursion by --max-stack; the oracle for the others)",
		Supports: supports,
		Check:    Check,
		// Exact on loop-free programs, explored whole; loops are cut at
		// --max-depth and recursion at --max-stack.
		Decides: engines.Decides{DepthBound: true, Orderings: true},
		Auto:    3,
	})
}

// supports accepts every well-formed program: the exact conflict graph
// has no limit on variables, locks or threads. It honours docs/spec.md
// §3's orderings, but not their conflicts under --lock-edges.
func supports(p *model.Program, opts engines.Options) error {
	if err := engines.ValidOrderedProgram(p); err != nil {
		return err
	}
	if opts.LockEdges && p.HasOrderings() {
		return fmt.Errorf("brute does not model the orderings' conflicts under --lock-edges (docs/spec.md §3)")
	}
	return nil
}

// Check explores every lock-valid interleaving of prefixes of the
// threads (docs/spec.md §1) depth first, within the bounds, stopping at the first run
// whose conflict graph has a cycle (Lemma 1).
func Check(ctx context.Context, p *model.Program, opts engines.Options) (engines.Result, error) {
	start := time.Now()
	if err := supports(p, opts); err != nil {
		return engines.Result{}, err
	}
	if opts.IgnoreSync {
		p = model.DropSync(p)
	}
	s := newSearcher(ctx, p, opts)
	found := s.search()
	s.cutDepth = !found && s.depthCutMatters()
	res := engines.Result{Engine: "brute", Stats: engines.Stats{States: s.states, Events: s.events}}
	switch {
	case found:
		res.Verdict, res.Witness = engines.Violation, s.witness
		if opts.IgnoreSync {
			res.Reason = engines.OptimisticNote
		}
	case s.stopped != "" || s.cutDepth || s.cutStack:
		res.Verdict, res.Reason, res.Limit = engines.Unknown, s.unknownReason(), s.unknownLimit()
	default:
		res.Verdict = engines.Serializable
	}
	res.Stats.Millis = time.Since(start).Milliseconds()
	return res, nil
}

// unknownLimit is the limit unknownReason names.
func (s *searcher) unknownLimit() engines.Limit {
	if s.stopped != "" {
		return s.limit
	}
	return engines.SearchBound
}

// unknownReason names every bound that cut the search.
func (s *searcher) unknownReason() string {
	if s.stopped != "" {
		return s.stopped
	}
	var cuts []string
	if s.cutDepth {
		cuts = append(cuts, fmt.Sprintf("--max-depth %d events per thread", s.maxDepth))
	}
	if s.cutStack {
		cuts = append(cuts, fmt.Sprintf("--max-stack %d stack symbols", s.maxStack))
	}
	return "no violation within " + strings.Join(cuts, " and ")
}
