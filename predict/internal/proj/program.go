package proj

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// The projection program (docs/spec.md §3): thread t of the trace becomes a
// straight-line automaton whose edges are t's events in trace order, an
// access outside begin … end becoming begin; access; end (a unary
// transaction). Edge q leaves state q, so a position in a thread's
// projection is an edge index, and the path of a prefix is {q, 0} for q
// below its length. Every event keeps its trace line as its position.

// AutoBuilder accumulates one straight-line automaton.
type AutoBuilder struct {
	edges []model.Edge
	inTxn []bool
	held  [][]int32
	cur   []int32 // locks held now; replaced, never mutated, when it changes
	open  bool
	orig  []int64 // per edge: its index in the full projection (reduced programs)
	count int64   // countOnly: edges added
	// countOnly counts the edges without keeping them (to size a program
	// before building it).
	countOnly bool
}

func (b *AutoBuilder) add(ev model.Event, orig int64) {
	if b.countOnly {
		b.count++
		return
	}
	b.edges = append(b.edges, model.Edge{To: int32(len(b.edges) + 1), Ev: ev})
	b.inTxn = append(b.inTxn, b.open)
	b.held = append(b.held, b.cur)
	b.orig = append(b.orig, orig)
	switch ev.Op {
	case model.OpBegin:
		b.open = true
	case model.OpEnd:
		b.open = false
	case model.OpAcquire:
		b.cur = insertLock(b.cur, ev.Target)
	case model.OpRelease:
		b.cur = RemoveLock(b.cur, ev.Target)
	}
}

// automaton closes the path with a terminal state.
func (b *AutoBuilder) automaton() *model.Automaton {
	n := len(b.edges)
	a := &model.Automaton{Out: make([][]model.Edge, n+1), InTxn: append(b.inTxn, b.open), Held: append(b.held, b.cur)}
	for q := 0; q < n; q++ {
		a.Out[q] = b.edges[q : q+1 : q+1]
	}
	return a
}

func insertLock(s []int32, l int32) []int32 {
	out := make([]int32, 0, len(s)+1)
	i := 0
	for ; i < len(s) && s[i] < l; i++ {
		out = append(out, s[i])
	}
	out = append(out, l)
	return append(out, s[i:]...)
}

func RemoveLock(s []int32, l int32) []int32 {
	out := make([]int32, 0, len(s))
	for _, x := range s {
		if x != l {
			out = append(out, x)
		}
	}
	return out
}

// Projected is one trace event as the projection's edges (one, or three for
// a unary access), with sync events as epsilon moves when dropSync.
func Projected(ev *trace.Event, open, dropSync bool, pos model.Pos) ([3]model.Event, int) {
	var out [3]model.Event
	e := model.Event{Op: ev.Op, Target: ev.Target, Pos: pos}
	switch {
	case ev.Op.IsAccess() && !open:
		out[0] = model.Event{Op: model.OpBegin, Target: -1, Pos: pos}
		out[1] = e
		out[2] = model.Event{Op: model.OpEnd, Target: -1, Pos: pos}
		return out, 3
	case ev.Op.IsSync() && dropSync:
		e = model.Event{Op: model.OpSkip, Target: -1, Pos: pos}
	case !ev.Op.HasTarget():
		e.Target = -1
	}
	out[0] = e
	return out, 1
}

// Program assembles a Program from per-thread builders and the names.
func (s *Summary) Program(bs []*AutoBuilder, vars, locks []string) *model.Program {
	p := &model.Program{File: s.Name, Vars: vars, Locks: locks, Msgs: s.Msgs}
	for t, b := range bs {
		if b == nil {
			b = &AutoBuilder{}
		}
		p.Threads = append(p.Threads, &model.Thread{Name: s.ThreadNames[t], Auto: b.automaton()})
	}
	return p
}
