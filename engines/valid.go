package engines

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// ValidProgram reports the first structural error of p: automata whose
// states, edges, event targets or stack symbols are out of range. Engines
// must return errors, not panic, on such programs. A program without threads
// is valid: it has one run, the empty one, which is serializable.
func ValidProgram(p *model.Program) error { return validProgram(p, false) }

// ValidOrderedProgram is ValidProgram for an engine that honours
// docs/spec.md §3's orderings (Decides.Orderings): their events are
// valid too.
func ValidOrderedProgram(p *model.Program) error { return validProgram(p, true) }

func validProgram(p *model.Program, orderings bool) error {
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
				if err := validEdge(p, a, e, orderings); err != nil {
					return fmt.Errorf("thread %s: state %d edge %d: %v", t.Name, q, k, err)
				}
			}
		}
	}
	return nil
}

func validEdge(p *model.Program, a *model.Automaton, e model.Edge, orderings bool) error {
	switch {
	case e.To < 0 || int(e.To) >= a.NumStates():
		return fmt.Errorf("target state %d out of range", e.To)
	case e.Ev.Op > model.OpTake || e.Ev.Op.IsExtension() && !orderings:
		return fmt.Errorf("unknown op %d", e.Ev.Op)
	case e.Ev.Op.HasTarget() && (e.Ev.Target < 0 || int(e.Ev.Target) >= targets(p, e.Ev.Op)):
		return fmt.Errorf("%s target %d out of range", e.Ev.Op, e.Ev.Target)
	case e.Stack > model.StackPop || e.Stack != model.StackNone && e.Sym < 0:
		return fmt.Errorf("bad stack operation %d/%d", e.Stack, e.Sym)
	}
	return nil
}

// targets is how many targets op may name in p (its variables, locks or
// threads): a switch, not a map built for every edge checked.
func targets(p *model.Program, op model.Op) int {
	switch op {
	case model.OpRead, model.OpWrite:
		return len(p.Vars)
	case model.OpAcquire, model.OpRelease, model.OpReadAcquire, model.OpReadRelease:
		return len(p.Locks)
	case model.OpFork, model.OpJoin:
		return len(p.Threads)
	case model.OpPost, model.OpWait, model.OpGive, model.OpTake:
		return len(p.Msgs)
	}
	return 0
}
