package global

import (
	"encoding/binary"
	"slices"

	"github.com/conc-dev/conc/model"
)

// conf is one state of the product (Theorem 4) as one flat slice of words,
// so that copying a state is one copy:
//
//	w[0:k]            every thread's automaton state
//	w[k:k+L]          every lock's holder + 1 (0: free)
//	w[k+L:2k+L]       whether each thread may move (1: started or never forked)
//	w[2k+L:2k+L+O]    docs/spec.md §3's orderings (orderings.go): read
//	                  holders, posts made, tokens available, of the locks,
//	                  messages and tokens some move reads; O = 0 in a
//	                  program without them
//	w[2k+L+O:]        the monitor's state (monitor.FSM words)
//
// Stacks of pushdown threads live beside it (top last; shared between
// states, never written in place).
type conf struct {
	w   []uint64
	stk [][]int32
}

// copyFrom makes c a copy of d, reusing c's memory.
func (c *conf) copyFrom(d *conf) {
	c.w = append(c.w[:0], d.w...)
	c.stk = append(c.stk[:0], d.stk...)
}

func (c *conf) clone() conf {
	return conf{w: slices.Clone(c.w), stk: slices.Clone(c.stk)}
}

// move is a move of thread t along edge e of its current state.
type move struct{ t, e int32 }

// step is a move as the witness records it: thread, source state, edge.
type step struct{ t, from, e int32 }

func (s *searcher) q(c *conf, t int) int32          { return int32(c.w[t]) }
func (s *searcher) owner(c *conf, l int32) int32    { return int32(c.w[s.k+int(l)]) - 1 }
func (s *searcher) started(c *conf, t int) bool     { return c.w[s.k+s.nLocks+t] != 0 }
func (s *searcher) mon(c *conf) []uint64            { return c.w[s.monOff:] }
func (s *searcher) out(c *conf, t int) []model.Edge { return s.p.Threads[t].Auto.Out[c.w[t]] }

// initial is the product's initial state: every thread at Init with an
// empty stack, no lock held, only unforked threads started, the empty run.
func (s *searcher) initial() conf {
	c := conf{w: make([]uint64, s.monOff+len(s.fsm.State())), stk: make([][]int32, s.k)}
	for t, th := range s.p.Threads {
		c.w[t] = uint64(th.Auto.Init)
		if s.forkedBy[t] < 0 {
			c.w[s.k+s.nLocks+t] = 1
		}
	}
	return c
}

// avail reports whether edge e of thread t fits its stack: a pop needs its
// symbol on top, a push room under the bound (a refused push makes the
// search bounded, hence cutStack). Only t's own moves change this.
func (s *searcher) avail(c *conf, t int, e model.Edge) bool {
	switch e.Stack {
	case model.StackPush:
		if len(c.stk[t]) >= s.maxStack {
			s.cutStack = true
			return false
		}
	case model.StackPop:
		st := c.stk[t]
		return len(st) > 0 && st[len(st)-1] == e.Sym
	}
	return true
}

// enabled reports whether an available edge may be taken now (docs/spec.md §1):
// the thread is started, an acquired lock is free, a fork happens once, a
// joined thread has finished; and (§3) a write acquire has no read
// holder, a read acquire no write holder, a wait and a take what
// orderingAllows says.
func (s *searcher) enabled(c *conf, t int, e model.Edge) bool {
	if !s.started(c, t) {
		return false
	}
	switch ev := e.Ev; ev.Op {
	case model.OpAcquire:
		return s.owner(c, ev.Target) < 0 && s.readFree(c, ev.Target)
	case model.OpRelease:
		return s.owner(c, ev.Target) == int32(t)
	case model.OpFork:
		return !s.started(c, int(ev.Target))
	case model.OpJoin:
		return int(ev.Target) != t && s.finished(c, int(ev.Target))
	case model.OpReadAcquire:
		return s.owner(c, ev.Target) < 0
	case model.OpWait, model.OpTake:
		return s.orderingAllows(c, ev)
	}
	return true
}

// finished reports whether thread u has started and can move no more.
func (s *searcher) finished(c *conf, u int) bool {
	return s.started(c, u) && len(s.out(c, u)) == 0 && len(c.stk[u]) == 0
}

// enabledMoves appends the enabled moves of the active threads.
func (s *searcher) enabledMoves(c *conf, out []move) []move {
	for t := 0; t < s.k; t++ {
		if s.active[t] {
			out = s.threadMoves(c, t, out)
		}
	}
	return out
}

// threadMoves appends thread t's enabled moves.
func (s *searcher) threadMoves(c *conf, t int, out []move) []move {
	for i, e := range s.out(c, t) {
		if s.avail(c, t, e) && s.enabled(c, t, e) {
			out = append(out, move{int32(t), int32(i)})
		}
	}
	return out
}

// apply makes move mv in c and steps the monitor; it reports whether the
// run now has a cycle.
func (s *searcher) apply(c *conf, mv move) bool {
	t := int(mv.t)
	from := s.q(c, t)
	e := s.p.Threads[t].Auto.Out[from][mv.e]
	c.w[t] = uint64(e.To)
	switch e.Stack {
	case model.StackPush:
		c.stk[t] = append(slices.Clip(c.stk[t]), e.Sym)
	case model.StackPop:
		c.stk[t] = c.stk[t][:len(c.stk[t])-1]
	}
	switch ev := e.Ev; ev.Op {
	case model.OpAcquire:
		c.w[s.k+int(ev.Target)] = uint64(t) + 1
	case model.OpRelease:
		c.w[s.k+int(ev.Target)] = 0
	case model.OpFork:
		c.w[s.k+s.nLocks+int(ev.Target)] = 1
	case model.OpReadAcquire, model.OpReadRelease, model.OpPost, model.OpGive, model.OpTake:
		s.applyOrdering(c, ev)
	}
	s.events++
	g := s.edges[t][from][mv.e]
	if g.noop {
		return false
	}
	s.fsm.Use(s.mon(c))
	return s.fsm.Step(t, g.letters)
}

// appendKey encodes c canonically. Compact: uvarints, and the monitor's own
// compact key; otherwise fixed-width words (the plain product's encoding).
func (s *searcher) appendKey(b []byte, c *conf) []byte {
	words := c.w[:s.monOff]
	if s.ord.on && !s.ord.inKey {
		words = c.w[:s.ord.off] // the positions determine the orderings' counts
	}
	if !s.cfg.compact {
		for _, x := range words {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
		for _, x := range c.w[s.monOff:] {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
		for t := range c.stk {
			b = binary.LittleEndian.AppendUint32(b, uint32(len(c.stk[t])))
			for _, sym := range c.stk[t] {
				b = binary.LittleEndian.AppendUint32(b, uint32(sym))
			}
		}
		return b
	}
	for _, x := range words {
		b = binary.AppendUvarint(b, x)
	}
	for t := range c.stk {
		if s.pushdown[t] {
			b = binary.AppendUvarint(b, uint64(len(c.stk[t])))
			for _, sym := range c.stk[t] {
				b = binary.AppendUvarint(b, uint64(sym))
			}
		}
	}
	s.fsm.Use(s.mon(c))
	return s.fsm.AppendKey(b)
}
