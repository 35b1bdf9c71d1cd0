package engines

import (
	"context"
	"fmt"
	"strings"
	"time"

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
	BruteMaxDepth = 12
	BruteMaxStack = 8
)

// bruteCheckEvery is how many states brute explores between deadline checks.
const bruteCheckEvery = 4096

func init() {
	Register(&Engine{
		Name: "brute",
		Doc: "enumerate lock-valid interleavings with the exact conflict graph " +
			"(loops bounded by --max-depth events per thread, recursion by --max-stack; the oracle for the others)",
		Supports: bruteSupports,
		Check:    bruteCheck,
	})
}

// bruteSupports accepts every well-formed program: the exact conflict graph
// has no limit on variables, locks or threads.
func bruteSupports(p *model.Program, _ Options) error { return bruteValidProgram(p) }

// bruteCheck explores every lock-valid interleaving of prefixes of the
// threads (docs/spec.md §1) depth first, within the bounds, stopping at the first run
// whose conflict graph has a cycle (Lemma 1).
func bruteCheck(ctx context.Context, p *model.Program, opts Options) (Result, error) {
	start := time.Now()
	if err := bruteValidProgram(p); err != nil {
		return Result{}, err
	}
	if opts.IgnoreSync {
		p = model.DropSync(p)
	}
	s := newBruteSearch(ctx, p, opts)
	found := s.search()
	s.cutDepth = !found && s.depthCutMatters()
	res := Result{Engine: "brute", Stats: Stats{States: s.states, Events: s.events}}
	switch {
	case found:
		res.Verdict, res.Witness = Violation, s.witness
		if opts.IgnoreSync {
			res.Reason = "--ignore-sync: lock, fork and join events were ignored, " +
				"so this run may not respect them (the witness is a run of the program without them)"
		}
	case s.stopped != "" || s.cutDepth || s.cutStack:
		res.Verdict, res.Reason = Unknown, s.unknownReason()
	default:
		res.Verdict = Serializable
	}
	res.Stats.Millis = time.Since(start).Milliseconds()
	return res, nil
}

// unknownReason names every bound that cut the search.
func (s *bruteSearch) unknownReason() string {
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

// bruteValidProgram reports the first structural error of p: automata whose
// states, edges, event targets or stack symbols are out of range. Engines
// must return errors, not panic, on such programs. A program without threads
// is valid: it has one run, the empty one, which is serializable.
func bruteValidProgram(p *model.Program) error {
	if p == nil {
		return fmt.Errorf("no program")
	}
	for ti, t := range p.Threads {
		if t == nil || t.Auto == nil || t.Auto.NumStates() == 0 {
			return fmt.Errorf("thread %d has no automaton", ti)
		}
		a := t.Auto
		if a.Init < 0 || int(a.Init) >= a.NumStates() {
			return fmt.Errorf("thread %s: initial state %d out of range", t.Name, a.Init)
		}
		for q, es := range a.Out {
			for k, e := range es {
				if err := bruteValidEdge(p, a, e); err != nil {
					return fmt.Errorf("thread %s: state %d edge %d: %v", t.Name, q, k, err)
				}
			}
		}
	}
	return nil
}

func bruteValidEdge(p *model.Program, a *model.Automaton, e model.Edge) error {
	limit := map[model.Op]int{
		model.OpRead: len(p.Vars), model.OpWrite: len(p.Vars),
		model.OpAcquire: len(p.Locks), model.OpRelease: len(p.Locks),
		model.OpFork: len(p.Threads), model.OpJoin: len(p.Threads),
	}
	switch {
	case e.To < 0 || int(e.To) >= a.NumStates():
		return fmt.Errorf("target state %d out of range", e.To)
	case e.Ev.Op > model.OpJoin:
		return fmt.Errorf("unknown op %d", e.Ev.Op)
	case e.Ev.Op.HasTarget() && (e.Ev.Target < 0 || int(e.Ev.Target) >= limit[e.Ev.Op]):
		return fmt.Errorf("%s target %d out of range", e.Ev.Op, e.Ev.Target)
	case e.Stack > model.StackPop || e.Stack != model.StackNone && e.Sym < 0:
		return fmt.Errorf("bad stack operation %d/%d", e.Stack, e.Sym)
	}
	return nil
}
