package engines

import (
	"fmt"
	"sort"

	"github.com/conc-dev/conc/model"
)

// Decides is what an engine declares it decides, by the paper's results:
// the programs on which its answer is exact (unknown only at a limit the
// user set). On the rest it searches boundedly (unknown past a bound) or,
// for LockFree, refuses. The registry, not its callers, reads it: Auto picks
// the engine for --engine auto and for predict, and DecidesProgram tells
// the test judge where unknown is acceptable.
type Decides struct {
	// Loops: finite-state threads with loops (the regular class).
	// Without it, only loop-free programs, which have finitely many
	// finite runs.
	Loops bool
	// Recursion: recursive threads without synchronisation (Lemma 4).
	// With locks, fork or join they are undecidable (Section 4), so no
	// engine decides them.
	Recursion bool
	// LockFree: the engine decides only programs without locks, fork or
	// join (Lemma 3 is about such programs), and refuses the others
	// unless --ignore-sync drops their synchronisation. An engine without
	// it decides them with and without --lock-edges' release→acquire and
	// fork/join conflicts (docs/spec.md §1), which only synchronisation
	// has. (The zero value accepts, so that an engine that declares
	// nothing, such as the tests' stubs, is refused nothing.)
	LockFree bool
	// DepthBound: --max-depth bounds the search, so that an unknown
	// answer is acceptable whenever it is given.
	DepthBound bool
	// Orderings: the engine honours docs/spec.md §3's orderings (read
	// locks, messages, tokens) in the runs it explores, without
	// --lock-edges (it does not model their conflicts).
	Orderings bool
}

// Shape is what the registry needs to know of a program to say which
// engines decide it.
type Shape struct {
	Class    model.Class
	LoopFree bool // model.Program.LoopFree
	Sync     bool // locks, fork or join in play
}

// ShapeOf is p's shape.
func ShapeOf(p *model.Program) Shape {
	return Shape{Class: p.Class(), LoopFree: p.LoopFree(), Sync: p.HasSync()}
}

// DecidesProgram reports whether e's answer on p (as it will be checked,
// after any --ignore-sync) is exact.
func (e *Engine) DecidesProgram(p *model.Program) bool { return e.DecidesShape(ShapeOf(p)) }

// DecidesShape reports whether e's answer is exact on programs of shape s.
func (e *Engine) DecidesShape(s Shape) bool {
	d := e.Decides
	switch {
	case s.Sync && d.LockFree:
		return false
	case s.Class == model.Recursive:
		return d.Recursion && !s.Sync
	case !s.LoopFree:
		return d.Loops
	}
	return true
}

// Pick is the engine auto prefers for programs of shape s: the first in
// the order of preference that decides them, or nil.
func Pick(s Shape) *Engine {
	return preferred(func(e *Engine) bool { return e.DecidesShape(s) })
}

// Accepts returns the usage error for checking p under opts with e, or nil:
// synchronisation e does not decide (SyncError), then e's own Supports.
func (e *Engine) Accepts(p *model.Program, opts Options) error {
	if e.Decides.LockFree && p.HasSync() && !opts.IgnoreSync {
		return SyncError(e.Name, "a program")
	}
	return e.Supports(p, opts)
}

// SyncError is the usage error of an engine asked about what (a program, a
// trace) with locks, fork or join, which it does not decide.
func SyncError(name, what string) error {
	alt := "another engine"
	if best := preferred(func(e *Engine) bool { return !e.Decides.LockFree }); best != nil {
		alt = "--engine " + best.Name
	}
	return fmt.Errorf("--engine %s cannot decide %s with locks, fork or join: "+
		"use %s (or auto), or --ignore-sync for the optimistic answer", name, what, alt)
}

// Auto is --engine auto: of the engines that accept p under opts, the
// first in the order of preference (Engine.Auto) that decides p, else the
// first that accepts it.
func Auto(p *model.Program, opts Options) (*Engine, error) {
	s := ShapeOf(p) // once, not once an engine
	if e := preferred(func(e *Engine) bool { return e.Accepts(p, opts) == nil && e.DecidesShape(s) }); e != nil {
		return e, nil
	}
	var last error
	for _, e := range autoOrder() {
		if last = e.Accepts(p, opts); last == nil {
			return e, nil
		}
	}
	if last == nil {
		return nil, fmt.Errorf("no engine available (have %s)", namesList())
	}
	return nil, fmt.Errorf("no engine supports this program: %v", last)
}

// preferred is the first engine in auto's order that ok accepts, or nil.
func preferred(ok func(*Engine) bool) *Engine {
	for _, e := range autoOrder() {
		if ok(e) {
			return e
		}
	}
	return nil
}

// autoOrder lists the engines auto may pick, most preferred first.
func autoOrder() []*Engine {
	var es []*Engine
	for _, e := range registry {
		if e.Auto > 0 {
			es = append(es, e)
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Auto < es[j].Auto })
	return es
}
