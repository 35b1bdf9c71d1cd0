package lang

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// Calls. A procedure that is not on a call cycle is inlined, so a thread
// without recursion stays finite-state. A procedure on a cycle is compiled
// to a pushdown system, once per context it is called in (the paper's
// recursive programs): a call pushes a fresh return symbol and moves by
// epsilon to the copy's entry; the copy's exit pops that symbol back to the
// return point. A recursive procedure must leave the context as it found it,
// so that the return point's context is the call's, whatever the recursion
// depth.

// copyKey names one copy of a recursive procedure.
type copyKey struct {
	proc *ProcDecl
	ctx  ctxID
}

// procCopy is a recursive procedure compiled in one context.
type procCopy struct {
	entry, exit int32 // exit is -1 while the body is being compiled
	pending     []ret // returns to wire once exit is known
}

// ret is one call's return: pop sym, go to state to.
type ret struct {
	sym int32
	to  int32
}

func (b *builder) call(s *Call, q int32) int32 {
	p, ok := b.n.procs[s.Proc.Name]
	if !ok {
		return q // reported by resolve
	}
	pos := toPos(s.Pos)
	b.calls = append(b.calls, pos)
	defer func() { b.calls = b.calls[:len(b.calls)-1] }()
	if !b.n.recursive[p] {
		return b.block(p.Body, q)
	}
	cp := b.procCopy(p, b.ctx[q])
	sym := int32(len(b.syms))
	b.syms = append(b.syms, fmt.Sprintf("%s from %s", p.Name.Name, pos))
	b.edge(q, cp.entry, model.Edge{Ev: epsilon(pos).Ev, Stack: model.StackPush, Sym: sym})
	r := b.newState(b.ctx[q])
	if cp.exit < 0 {
		cp.pending = append(cp.pending, ret{sym: sym, to: r})
	} else {
		b.popEdge(p, cp.exit, ret{sym: sym, to: r})
	}
	return r
}

// procCopy returns p's copy for context c, compiling it on first use. A
// recursive call reaching a copy still being compiled gets its return wired
// when the body is done.
func (b *builder) procCopy(p *ProcDecl, c ctxID) *procCopy {
	key := copyKey{p, c}
	if cp, ok := b.copies[key]; ok {
		return cp
	}
	cp := &procCopy{entry: b.newState(c), exit: -1}
	b.copies[key] = cp
	exit := b.block(p.Body, cp.entry)
	if b.over {
		return cp
	}
	if b.ctx[exit] != c {
		b.errorf(toPos(p.Name.Pos), "recursive procedure %s must leave held locks and transaction status as it found them: called %s, it returns %s",
			p.Name.Name, b.ctxs.describe(c, b.n.locks.list), b.ctxs.describe(b.ctx[exit], b.n.locks.list))
	}
	cp.exit = exit
	for _, r := range cp.pending {
		b.popEdge(p, exit, r)
	}
	cp.pending = nil
	return cp
}

// popEdge returns from p's copy, at p's closing brace.
func (b *builder) popEdge(p *ProcDecl, exit int32, r ret) {
	b.edge(exit, r.to, model.Edge{Ev: epsilon(toPos(p.Body.Close.Pos)).Ev, Stack: model.StackPop, Sym: r.sym})
}
