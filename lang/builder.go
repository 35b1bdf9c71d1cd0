package lang

import (
	"fmt"
	"slices"

	"github.com/conc-dev/conc/model"
)

// maxStates bounds one thread's automaton: repeat counts and inlined calls
// multiply, and a typo should fail with a message, not exhaust memory. It
// leaves room for 10^7 accesses outside transactions (three edges each).
// It is a variable only so that the fuzz test can make it small.
var maxStates int64 = 30_000_000

// builder builds one thread's automaton. States carry their context from
// birth; edges are appended to their source. Join points (loop heads,
// choose joins) are made without epsilon edges where that is sound: a
// branch's end state that has no out-edge yet is merged into the join state
// (it is only a name for "what comes next"); a state that already has
// out-edges is linked by an epsilon edge instead. Merges are recorded in
// merged and applied once, in finish.
type builder struct {
	n      *names
	errs   *ErrorList
	thread *ThreadDecl

	out    [][]model.Edge
	ctx    []ctxID
	ctxs   *contexts
	merged map[int32]int32 // merged state -> the state it joined
	sealed map[int32]bool  // states others will add edges to: never loop heads
	syms   []string
	over   bool // maxStates exceeded, or the limits stopped the compile: building stops
	lim    *limiter
	slab   []model.Edge // where first out-edges are allocated

	z      *sizes                // size bounds, also telling event-free code
	copies map[copyKey]*procCopy // recursive procedures, one copy per context
	calls  []model.Pos           // the calls being compiled, innermost last
}

// errorf reports an error found while building. Inside a procedure, the
// error is at the procedure's text, and the innermost call says which
// context it was compiled in.
func (b *builder) errorf(pos model.Pos, format string, args ...any) {
	if n := len(b.calls); n > 0 {
		c := b.calls[n-1]
		format += fmt.Sprintf(" (called at %d:%d)", c.Line, c.Col)
	}
	b.errs.add(pos, format, args...)
}

func newBuilder(n *names, errs *ErrorList, t *ThreadDecl, l *limiter) *builder {
	return &builder{n: n, errs: errs, thread: t, ctxs: newContexts(), lim: l,
		z:      newSizes(n),
		merged: map[int32]int32{}, sealed: map[int32]bool{}, copies: map[copyKey]*procCopy{}}
}

// newState adds a state in context c.
func (b *builder) newState(c ctxID) int32 {
	if int64(len(b.out)) >= maxStates {
		if !b.over {
			b.over = true
			b.errs.add(toPos(b.thread.Pos), "thread %s is too large: more than %d states %s", b.thread.Name.Name, maxStates, sizeHint)
		}
		return 0
	}
	if !b.lim.add() {
		b.over = true
		return 0
	}
	b.out = append(b.out, nil)
	b.ctx = append(b.ctx, c)
	return int32(len(b.out) - 1)
}

// edge adds an edge from q to r. Most states have one out-edge, so first
// edges are carved from a shared slab instead of one allocation each; a
// second edge makes append copy the state's edges out of the slab.
func (b *builder) edge(q, r int32, e model.Edge) {
	if b.over {
		return
	}
	e.To = r
	if len(b.out[q]) > 0 {
		b.out[q] = append(b.out[q], e)
		return
	}
	if len(b.slab) == 0 {
		b.slab = make([]model.Edge, slabSize)
	}
	b.slab[0] = e
	b.out[q] = b.slab[0:1:1]
	b.slab = b.slab[1:]
}

const slabSize = 4096

// maxReserve is the most states reserve makes room for: 2^22 states are
// 100 MB of state slices, about 0.3 s of building.
const maxReserve = 1 << 22

// reserve makes room for n more states, from the size bound, up to
// maxReserve: a compile the deadline stops early must not have allocated
// (and faulted in) the room for all of them first; beyond it append grows.
func (b *builder) reserve(n int64) {
	n = min(n+1, maxReserve)
	if m := b.lim.lim.MaxStates; m > 0 {
		n = min(n, max(m-b.lim.states+1, 0)) // the limiter stops the build there
	}
	b.out = slices.Grow(b.out, int(n))
	b.ctx = slices.Grow(b.ctx, int(n))
}

// step adds an edge emitting ev from q to a new state in context c.
func (b *builder) step(q int32, ev model.Event, c ctxID) int32 {
	r := b.newState(c)
	b.edge(q, r, model.Edge{Ev: ev})
	return r
}

// epsilon is an edge without event.
func epsilon(pos model.Pos) model.Edge {
	return model.Edge{Ev: model.Event{Op: model.OpSkip, Target: -1, Pos: pos}}
}

// join makes x continue as y does: x is merged into y when x has no
// out-edge yet, and linked to it by an epsilon edge otherwise.
func (b *builder) join(x, y int32, pos model.Pos) {
	if x == y || b.over {
		return
	}
	if len(b.out[x]) == 0 {
		b.merged[x] = y
		return
	}
	b.edge(x, y, epsilon(pos))
}

// fresh returns a state that may become a loop head: q itself when nothing
// leaves q and nothing but q's own continuation ever will, else a new state
// reached from q by epsilon. A head that is not fresh would mix the loop
// with other behaviour: with what already leaves q, or, when q is sealed
// (an enclosing loop's head, a choose's start), with the enclosing loop's
// exit or the other branches.
func (b *builder) fresh(q int32, pos model.Pos) int32 {
	if len(b.out[q]) == 0 && !b.sealed[q] {
		return q
	}
	h := b.newState(b.ctx[q])
	b.edge(q, h, epsilon(pos))
	return h
}

// find follows merges to the state that stands for q.
func (b *builder) find(q int32) int32 {
	for {
		r, ok := b.merged[q]
		if !ok {
			return q
		}
		q = r
	}
}

// finish applies the merges, numbers the surviving states densely, drops
// the epsilon self-loops that merging may create, and fills InTxn and Held.
func (b *builder) finish(init int32) *model.Automaton {
	a := &model.Automaton{Symbols: b.syms, Init: init}
	if len(b.merged) > 0 {
		b.applyMerges(a, init)
	} else {
		a.Out = slices.Clip(b.out)
	}
	keep := func(q int) bool { _, gone := b.merged[int32(q)]; return !gone }
	a.InTxn = make([]bool, 0, len(a.Out))
	a.Held = make([][]int32, 0, len(a.Out))
	for q := range b.out {
		if !b.lim.tick(q) {
			break // the limits stopped the compile: the automaton is dropped
		}
		if len(b.merged) == 0 || keep(q) {
			c := b.ctxs.get(b.ctx[q])
			a.InTxn = append(a.InTxn, c.inTxn)
			a.Held = append(a.Held, c.held)
		}
	}
	return a
}

// applyMerges numbers the surviving states densely and redirects edges.
func (b *builder) applyMerges(a *model.Automaton, init int32) {
	num := make([]int32, len(b.out)) // new number of each surviving state
	next := int32(0)
	for q := range b.out {
		if _, gone := b.merged[int32(q)]; !gone {
			num[q] = next
			next++
		}
	}
	a.Out = make([][]model.Edge, 0, next)
	for q, es := range b.out {
		if !b.lim.tick(q) {
			break
		}
		if _, gone := b.merged[int32(q)]; !gone {
			a.Out = append(a.Out, b.redirect(int32(q), es, num))
		}
	}
	a.Init = num[b.find(init)]
}

// redirect renumbers the targets of q's edges, dropping epsilon self-loops.
func (b *builder) redirect(q int32, es []model.Edge, num []int32) []model.Edge {
	kept := es[:0]
	for _, e := range es {
		to := b.find(e.To)
		if to == q && e.Ev.Op == model.OpSkip && e.Stack == model.StackNone {
			continue
		}
		e.To = num[to]
		kept = append(kept, e)
	}
	return kept
}
