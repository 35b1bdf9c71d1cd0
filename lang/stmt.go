package lang

import (
	"github.com/conc-dev/conc/model"
)

// Structured code compiles to automata by the usual construction, with
// states labelled by their context (transaction status, held locks). Each
// function takes the state q where the statement starts and returns the
// state where it ends; straight-line code becomes a chain without epsilon
// edges.

// block compiles a block's statements in sequence.
func (b *builder) block(blk *Block, q int32) int32 {
	for _, s := range blk.Stmts.List {
		if b.over {
			return q
		}
		q = b.stmt(s, q)
	}
	return q
}

func (b *builder) stmt(s Stmt, q int32) int32 {
	switch s := s.(type) {
	case *Access:
		return b.access(s, q)
	case *LockOp:
		return b.lockOp(s.Op == "acquire", s.Lock, toPos(s.Lock.Pos), q)
	case *Sync:
		q = b.lockOp(true, s.Lock, toPos(s.Lock.Pos), q)
		q = b.block(s.Body, q)
		return b.lockOp(false, s.Lock, toPos(s.Body.Close.Pos), q)
	case *Atomic:
		return b.atomic(s, q)
	case *Loop:
		return b.loop(s, q)
	case *Repeat:
		return b.repeat(s, q)
	case *Choose:
		return b.choose(s, q)
	case *Call:
		return b.call(s, q)
	}
	return q // skip
}

// access emits one event per name, each a unary transaction (begin;
// access; end, all at the name's position) when outside any transaction.
func (b *builder) access(s *Access, q int32) int32 {
	op := model.OpRead
	if s.Op == "write" {
		op = model.OpWrite
	}
	for _, id := range s.Names {
		ev := model.Event{Op: op, Target: b.n.target(op, id), Pos: toPos(id.Pos)}
		c := b.ctx[q]
		if b.ctxs.get(c).inTxn {
			q = b.step(q, ev, c)
			continue
		}
		in := b.ctxs.withTxn(c, true)
		q = b.step(q, model.Event{Op: model.OpBegin, Target: -1, Pos: ev.Pos}, in)
		q = b.step(q, ev, in)
		q = b.step(q, model.Event{Op: model.OpEnd, Target: -1, Pos: ev.Pos}, c)
	}
	return q
}

// lockOp emits an acquire or release, checking that it is locally valid in
// q's context (docs/spec.md §1: no re-entrant acquire, no release of a lock not held).
func (b *builder) lockOp(acquire bool, id *Ident, pos model.Pos, q int32) int32 {
	op := model.OpRelease
	if acquire {
		op = model.OpAcquire
	}
	l := b.n.target(op, id)
	c := b.ctx[q]
	if l >= 0 {
		switch held := b.ctxs.holds(c, l); {
		case acquire && held:
			b.errorf(pos, "acquire of lock %s that may already be held", id.Name)
		case !acquire && !held:
			b.errorf(pos, "release of lock %s that may not be held", id.Name)
		}
		c = b.ctxs.withLock(c, l, acquire)
	}
	return b.step(q, model.Event{Op: op, Target: l, Pos: pos}, c)
}

// atomic compiles the outermost atomic block to begin (at "atomic"), body,
// end (at the closing brace); a nested one is flattened into its enclosing
// transaction (docs/spec.md §1).
func (b *builder) atomic(s *Atomic, q int32) int32 {
	c := b.ctx[q]
	if b.ctxs.get(c).inTxn {
		return b.block(s.Body, q)
	}
	q = b.step(q, model.Event{Op: model.OpBegin, Target: -1, Pos: toPos(s.Pos)}, b.ctxs.withTxn(c, true))
	q = b.block(s.Body, q)
	return b.step(q, model.Event{Op: model.OpEnd, Target: -1, Pos: toPos(s.Body.Close.Pos)}, b.ctxs.withTxn(b.ctx[q], false))
}

// loop compiles zero or more iterations: the body leaves a fresh head and
// returns to it, so the context at the head must not depend on how many
// iterations ran. A body without events (by the size bound) compiles to
// nothing.
func (b *builder) loop(s *Loop, q int32) int32 {
	pos := toPos(s.Pos)
	if b.z.loop(s.Body, b.ctxs.get(b.ctx[q]).inTxn) == 0 {
		return q // no event: zero or more iterations of nothing
	}
	h := b.fresh(q, pos)
	b.sealed[h] = true
	f := b.block(s.Body, h)
	if b.over {
		return h
	}
	b.sameContext(f, h, pos, "at the loop head")
	b.join(f, h, pos)
	return h
}

// repeat unrolls the body count times. A body that adds no state leaves
// nothing to unroll, so repeat 1000000 { skip } costs one iteration.
func (b *builder) repeat(s *Repeat, q int32) int32 {
	n, ok := parseCount(s.Count.Text)
	if !ok {
		n = 1 // reported by resolve; compile once to find the body's errors
	}
	for i := 0; i < n && !b.over; i++ {
		before, errs := len(b.out), len(*b.errs)
		r := b.block(s.Body, q)
		if len(*b.errs) > errs {
			return r // later iterations would repeat the same errors
		}
		if len(b.out) == before && r == q {
			break
		}
		q = r
	}
	return q
}

// choose compiles each branch from q and joins their ends: into one of the
// ends that nothing leaves yet, or into a new state.
func (b *builder) choose(s *Choose, q int32) int32 {
	pos := toPos(s.Pos)
	b.sealed[q] = true
	ends := make([]int32, len(s.Branches))
	for i, br := range s.Branches {
		ends[i] = b.block(br, q)
	}
	if b.over {
		return q
	}
	j := int32(-1)
	for _, e := range ends {
		if len(b.out[e]) == 0 {
			j = e
			break
		}
	}
	if j < 0 {
		j = b.newState(b.ctx[ends[0]])
	}
	for _, e := range ends {
		b.sameContext(e, j, pos, "after choose")
		b.join(e, j, pos)
	}
	return j
}

// sameContext reports a program point whose context depends on the path
// (docs/spec.md §2): x and y are about to become one state.
func (b *builder) sameContext(x, y int32, pos model.Pos, where string) bool {
	if b.ctx[x] == b.ctx[y] {
		return true
	}
	b.errorf(pos, "held locks or transaction status %s depend on the path: %s on one path, %s on another",
		where, b.ctxs.describe(b.ctx[y], b.n.locks.list), b.ctxs.describe(b.ctx[x], b.n.locks.list))
	return false
}
