package blocks

import (
	"encoding/binary"
	"slices"
)

// A thread's blocks, each kept once with where it occurs (the paper's
// sharing of blocks among transactions, Section 6.6): what the test
// compares of a block is its variables, ops, locks and epochs.

// oneBlock is a 1v-block (outerPairs): two accesses of one variable.
type oneBlock struct {
	v      int32
	k      Kind    // the pattern it makes with an access of another thread between
	h12    []int32 // the locks held from the first access to the second
	e1, e2 int32   // their epochs
	at     []at
}

// opBlock is an access as the event between another thread's block.
type opBlock struct {
	v             int32
	ir, write, fw bool
	held          []int32
	epoch         int32
	at            []at
}

// twoBlock is a 2v-block: an initial read or final write a of one
// variable before one, b, of another.
type twoBlock struct {
	va, vb int32
	wa, wb bool    // a, b write (a final write; else an initial read)
	ha, hb []int32 // the locks held at a and at b
	h12    []int32 // held from a to b
	span   []int32 // held somewhere from a to b (Content.span)
	ea, eb int32
	at     []at
}

// threadBlocks are a thread's blocks.
type threadBlocks struct {
	one []*oneBlock
	ops map[int32][]*opBlock // by variable
	two []*twoBlock          // of its small contents
	// big are the contents with more than smallIRFW initial reads and
	// final writes, whose 2v-blocks are not built (a harness transaction
	// over thousands of variables would have millions): they are made
	// on the fly for another thread's 2v-blocks (twov.go), with irfw.
	big  []int32
	irfw map[int32]irfw
}

// smallIRFW bounds the initial reads and final writes of a content whose
// 2v-blocks are built (at most smallIRFW²/2 of them). A variable so that
// the tests can make every content big.
var smallIRFW = 16

// blocks builds (once) the thread's blocks from its contents; f counts
// the work and may stop it.
func (th *Thread) blocks(f *filter) *threadBlocks {
	if th.bs != nil {
		return th.bs
	}
	b := &threadBlocks{ops: map[int32][]*opBlock{}, irfw: map[int32]irfw{}}
	ones, ops, twos := map[string]*oneBlock{}, map[string]*opBlock{}, map[string]*twoBlock{}
	for ci, c := range th.Contents {
		for _, v := range c.vars {
			for _, pr := range outerPairs(c, c.byVar[v]) {
				b.addOne(ones, c, int32(ci), pr)
			}
		}
		for i := range c.Acc {
			b.addOp(ops, c, int32(ci), int32(i))
		}
		e := irfwOf(c, c.vars)
		evs := e.events(c)
		if len(evs) > smallIRFW {
			b.big, b.irfw[int32(ci)] = append(b.big, int32(ci)), e
			continue
		}
		for i, ai := range evs {
			for _, bi := range evs[i+1:] {
				if c.Acc[ai].Var != c.Acc[bi].Var {
					b.addTwo(twos, c, int32(ci), ai, bi)
				}
			}
		}
		if !f.tick() {
			break
		}
	}
	th.bs = b
	return b
}

func (b *threadBlocks) addOne(m map[string]*oneBlock, c *Content, ci int32, pr [2]int32) {
	e1, e2 := &c.Acc[pr[0]], &c.Acc[pr[1]]
	ob := &oneBlock{v: e1.Var, k: kindOf(e1, e2), h12: sortedLocks(held12(e1, e2)), e1: e1.Epoch, e2: e2.Epoch}
	key := keyOf(int64(ob.v), int64(ob.k), int64(ob.e1), int64(ob.e2), -1) + locksKey(ob.h12)
	if old, ok := m[key]; ok {
		ob = old
	} else {
		m[key] = ob
		b.one = append(b.one, ob)
	}
	ob.at = append(ob.at, at{ci, pr[0], pr[1]})
}

func (b *threadBlocks) addOp(m map[string]*opBlock, c *Content, ci, i int32) {
	a := &c.Acc[i]
	op := &opBlock{v: a.Var, ir: a.IR, write: a.Write, fw: a.FW, held: sortedLocks(a.locks()), epoch: a.Epoch}
	key := keyOf(int64(op.v), b2i64(op.ir), b2i64(op.write), b2i64(op.fw), int64(op.epoch), -1) + locksKey(op.held)
	if old, ok := m[key]; ok {
		op = old
	} else {
		m[key] = op
		b.ops[op.v] = append(b.ops[op.v], op)
	}
	op.at = append(op.at, at{ci, i, -1})
}

// newTwoBlock is the 2v-block of c's accesses ai before bi.
func newTwoBlock(c *Content, ci, ai, bi int32) *twoBlock {
	a, bb := &c.Acc[ai], &c.Acc[bi]
	return &twoBlock{va: a.Var, vb: bb.Var, wa: a.Write, wb: bb.Write, ha: sortedLocks(a.locks()), hb: sortedLocks(bb.locks()),
		h12: sortedLocks(held12(a, bb)), span: sortedLocks(c.span(a, bb)), ea: a.Epoch, eb: bb.Epoch, at: []at{{ci, ai, bi}}}
}

func (b *threadBlocks) addTwo(m map[string]*twoBlock, c *Content, ci, ai, bi int32) {
	tb := newTwoBlock(c, ci, ai, bi)
	tb.at = nil
	key := keyOf(int64(tb.va), int64(tb.vb), b2i64(tb.wa), b2i64(tb.wb), int64(tb.ea), int64(tb.eb), -1) +
		locksKey(tb.ha) + locksKey(tb.hb) + locksKey(tb.h12) + locksKey(tb.span)
	if old, ok := m[key]; ok {
		tb = old
	} else {
		m[key] = tb
		b.two = append(b.two, tb)
	}
	tb.at = append(tb.at, at{ci, ai, bi})
}

// keyOf and locksKey spell a block's fields as a map key.
func keyOf(xs ...int64) string {
	var b []byte
	for _, x := range xs {
		b = binary.AppendVarint(b, x)
	}
	return string(b)
}

func locksKey(ls []int32) string {
	xs := make([]int64, 0, len(ls)+1)
	for _, l := range ls {
		xs = append(xs, int64(l))
	}
	return keyOf(append(xs, -1)...)
}

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// outerPairs are the 1v-blocks of one variable's accesses is (in order):
// each access with the last write before it, or when there is none the
// last read before it (the paper's rule a), and the first initial read
// with the final write (rule b).
func outerPairs(c *Content, is []int32) [][2]int32 {
	var out [][2]int32
	lastW, lastR := int32(-1), int32(-1)
	ir, fw := int32(-1), int32(-1)
	for _, i := range is {
		a := &c.Acc[i]
		switch {
		case lastW >= 0:
			out = append(out, [2]int32{lastW, i})
		case lastR >= 0:
			out = append(out, [2]int32{lastR, i})
		}
		if a.Write {
			lastW = i
		} else {
			lastR = i
		}
		if a.IR && ir < 0 {
			ir = i
		}
		if a.FW {
			fw = i
		}
	}
	if pr := [2]int32{ir, fw}; ir >= 0 && fw >= 0 && !slices.Contains(out, pr) {
		out = append(out, pr)
	}
	return out
}
