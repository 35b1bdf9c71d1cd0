package lang

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// Automaton threads give the transition system directly. Their states are
// named by use; the context of each state (transaction status, held locks)
// is propagated from init along the edges, treating push and pop as plain
// edges, and must not depend on the path. An access leaving a state outside
// any transaction becomes begin; access; end through two fresh states, the
// stack operation (if any) riding on the begin so that a pop still guards
// the whole access.

// autoThread is one automaton thread being checked and compiled.
type autoThread struct {
	*builder
	a      *Automaton
	states symtab // named states
	first  []*Ident
	syms   symtab
	from   [][]*Edge // edges by source state
	state  []int32   // builder state of each named state, -1 if unreached
	seen   []bool
}

func (b *builder) automaton(a *Automaton) *model.Automaton {
	t := &autoThread{builder: b, a: a}
	t.name(a.Init)
	for _, e := range a.Edges {
		t.name(e.From)
		t.name(e.To)
	}
	t.from = make([][]*Edge, len(t.states.list))
	dups := map[string]bool{}
	for _, e := range a.Edges {
		key := fmt.Sprintf("%s>%s:%s %s %s/%s %s", e.From.Name, e.To.Name, e.Label.Op, e.Label.Bare, targetName(e.Label), e.Stack, symName(e))
		if dups[key] {
			b.errs.add(toPos(e.Pos), "duplicate edge %s -> %s", e.From.Name, e.To.Name)
			continue
		}
		dups[key] = true
		q, _ := t.states.lookup(e.From.Name)
		t.from[q] = append(t.from[q], e)
	}
	unknownInit := len(t.from[0]) == 0 && !t.target(0)
	switch {
	case unknownInit && len(a.Edges) == 0:
		// Most likely unfinished; the empty thread has its own spelling.
		b.errs.add(toPos(a.Init.Pos), "unknown state %s: no edge mentions it (the automaton has no edges; a thread that does nothing is written thread %s { })",
			a.Init.Name, b.thread.Name.Name)
	case unknownInit:
		b.errs.add(toPos(a.Init.Pos), "unknown state %s: no edge mentions it", a.Init.Name)
	}
	init := t.propagate()
	if !unknownInit {
		t.reportUnreachable()
	}
	auto := b.finish(init)
	auto.Names = t.names()
	return auto
}

func targetName(l *Label) string {
	if l.Target == nil {
		return ""
	}
	return l.Target.Name
}

func symName(e *Edge) string {
	if e.Sym == nil {
		return ""
	}
	return e.Sym.Name
}

// name numbers a state on its first mention.
func (t *autoThread) name(id *Ident) {
	if _, ok := t.states.lookup(id.Name); !ok {
		t.states.add(id.Name)
		t.first = append(t.first, id)
	}
}

// target reports whether some edge enters named state q.
func (t *autoThread) target(q int32) bool {
	for _, e := range t.a.Edges {
		if e.To.Name == t.states.list[q] {
			return true
		}
	}
	return false
}

// propagate visits the named states from init in breadth-first order,
// giving each the context it is first reached in, checking every edge
// against its source's context and emitting it.
func (t *autoThread) propagate() int32 {
	n := len(t.states.list)
	t.state = make([]int32, n)
	for i := range t.state {
		t.state[i] = -1
	}
	t.seen = make([]bool, n)
	init := t.newState(t.ctxs.intern(context{}))
	t.state[0] = init
	for queue := []int32{0}; len(queue) > 0 && !t.over; queue = queue[1:] {
		p := queue[0]
		for _, e := range t.from[p] {
			q, _ := t.states.lookup(e.To.Name)
			c := t.edgeContext(e, t.ctx[t.state[p]])
			if t.state[q] < 0 {
				t.state[q] = t.newState(c)
				queue = append(queue, q)
			} else if t.ctx[t.state[q]] != c && !t.seen[q] {
				t.seen[q] = true // report each state once
				t.errs.add(toPos(e.Pos), "held locks or transaction status at state %s depend on the path: %s on one path, %s on another",
					e.To.Name, t.ctxs.describe(t.ctx[t.state[q]], t.n.locks.list), t.ctxs.describe(c, t.n.locks.list))
			}
			t.emit(e, t.state[p], t.state[q])
		}
	}
	return init
}

// edgeContext checks e in context c and returns the context after it.
func (t *autoThread) edgeContext(e *Edge, c ctxID) ctxID {
	l := e.Label
	pos := toPos(l.Pos)
	inTxn := t.ctxs.get(c).inTxn
	switch {
	case l.Bare == "begin" && inTxn:
		t.errs.add(pos, "begin inside a transaction")
	case l.Bare == "begin":
		return t.ctxs.withTxn(c, true)
	case l.Bare == "end" && !inTxn:
		t.errs.add(pos, "end outside a transaction")
	case l.Bare == "end":
		return t.ctxs.withTxn(c, false)
	case l.Op == "acquire" || l.Op == "release":
		acquire := l.Op == "acquire"
		lock := t.n.target(model.OpAcquire, l.Target)
		if lock < 0 {
			return c
		}
		switch held := t.ctxs.holds(c, lock); {
		case acquire && held:
			t.errs.add(toPos(l.Target.Pos), "acquire of lock %s that may already be held", l.Target.Name)
		case !acquire && !held:
			t.errs.add(toPos(l.Target.Pos), "release of lock %s that may not be held", l.Target.Name)
		}
		return t.ctxs.withLock(c, lock, acquire)
	}
	return c
}

// emit adds e's edge (or its begin; access; end) from state p to state q.
func (t *autoThread) emit(e *Edge, p, q int32) {
	edge := model.Edge{Ev: labelEvent(t.n, e.Label)}
	switch e.Stack {
	case "push":
		edge.Stack, edge.Sym = model.StackPush, t.symbol(e.Sym)
	case "pop":
		edge.Stack, edge.Sym = model.StackPop, t.symbol(e.Sym)
	}
	c := t.ctx[p]
	if !edge.Ev.Op.IsAccess() || t.ctxs.get(c).inTxn {
		t.edge(p, q, edge)
		return
	}
	in := t.ctxs.withTxn(c, true)
	begin := edge
	begin.Ev = model.Event{Op: model.OpBegin, Target: -1, Pos: edge.Ev.Pos}
	f1 := t.newState(in)
	t.edge(p, f1, begin)
	f2 := t.step(f1, edge.Ev, in)
	t.edge(f2, q, model.Edge{Ev: model.Event{Op: model.OpEnd, Target: -1, Pos: edge.Ev.Pos}})
}

// labelEvent is the event of an edge label; accesses and lock events are
// positioned at their target's name.
func labelEvent(n *names, l *Label) model.Event {
	op := model.OpSkip
	switch l.Op + l.Bare {
	case "read":
		op = model.OpRead
	case "write":
		op = model.OpWrite
	case "acquire":
		op = model.OpAcquire
	case "release":
		op = model.OpRelease
	case "begin":
		op = model.OpBegin
	case "end":
		op = model.OpEnd
	}
	if l.Target == nil {
		return model.Event{Op: op, Target: -1, Pos: toPos(l.Pos)}
	}
	return model.Event{Op: op, Target: n.target(op, l.Target), Pos: toPos(l.Target.Pos)}
}

// symbol numbers a stack symbol by name.
func (t *autoThread) symbol(id *Ident) int32 {
	if i, ok := t.syms.lookup(id.Name); ok {
		return i
	}
	i := t.syms.add(id.Name)
	t.builder.syms = t.syms.list
	return i
}

// reportUnreachable rejects named states that init cannot reach (push and
// pop treated as plain edges): they are almost always a misspelt name.
func (t *autoThread) reportUnreachable() {
	if t.over {
		return
	}
	for q, s := range t.state {
		if s < 0 {
			id := t.first[q]
			t.errs.add(toPos(id.Pos), "state %s is unreachable from init state %s", id.Name, t.a.Init.Name)
		}
	}
}

// names names the states for reports: named states by their names, the
// states inside an expanded access after the access's source state.
func (t *autoThread) names() []string {
	names := make([]string, len(t.out))
	for q, s := range t.state {
		if s >= 0 {
			names[s] = t.states.list[q]
		}
	}
	for s, es := range t.out {
		for _, e := range es {
			if names[e.To] == "" {
				names[e.To] = names[s] + "'"
			}
		}
	}
	return names
}
