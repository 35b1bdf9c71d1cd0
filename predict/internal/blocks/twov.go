package blocks

// The 2v-block patterns (the paper's Section 6.2). Among the initial
// reads and final writes of two transactions, a pair on one variable that
// conflicts orders them (its first event's transaction first: an initial
// read before the other's final write reads the value before it, a final
// write before the other's is overwritten); when every 1v pattern is
// absent, σ is serializable iff all these pairs order the two alike. Two
// pairs on one variable cannot disagree without a 1v pattern, so a
// disagreement is a 2v-block of t (a, b: a before b, on x ≠ y) and u's
// initial reads or final writes of x and y (a', b''), with a < a' and
// b'' < b, or a' < a and b < b''. The first initial read of a variable
// stands for all: if two of them fall on different sides of u's final
// write, a 1v pattern (two initial reads and a write between) is there.

// irfw is a content's first initial read and final write of each
// variable (-1: none).
type irfw struct {
	ir, fw map[int32]int32
}

func irfwOf(c *Content, vars []int32) irfw {
	e := irfw{ir: map[int32]int32{}, fw: map[int32]int32{}}
	for _, v := range vars {
		e.ir[v], e.fw[v] = -1, -1
		for _, i := range c.byVar[v] {
			a := &c.Acc[i]
			if a.IR && e.ir[v] < 0 {
				e.ir[v] = i
			}
			if a.FW {
				e.fw[v] = i
			}
		}
	}
	return e
}

// events are the initial reads and final writes, in program order.
func (e irfw) events(c *Content) []int32 {
	var out []int32
	for i := range c.Acc {
		v := c.Acc[i].Var
		if e.ir[v] == int32(i) || e.fw[v] == int32(i) {
			out = append(out, int32(i))
		}
	}
	return out
}

func conflict(wa, wb bool) bool { return wa || wb }

// of is the initial read and final write of v that exist.
func (e irfw) of(v int32) []int32 {
	var out []int32
	for _, i := range []int32{e.ir[v], e.fw[v]} {
		if i >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// twoV compares x's 2v-blocks with y's on the same two variables: the
// blocks of their small contents with each other, and those of a big
// content made on the fly for the other's blocks (blockset.go).
func (f *filter) twoV(x, y int32, bx, by *threadBlocks) {
	for _, A := range bx.two {
		for _, B := range by.two {
			if !f.tick() {
				return
			}
			f.twoPair(x, y, A, B)
		}
	}
	f.bigTwo(x, y, bx, by.two)
	f.bigTwo(y, x, by, bx.two)
	for _, ci := range bx.big {
		for _, di := range by.big {
			f.bigBig(x, y, ci, di, bx, by)
		}
	}
}

// twoPair compares x's 2v-block A with y's B.
func (f *filter) twoPair(x, y int32, A, B *twoBlock) {
	switch {
	case B.va == A.va && B.vb == A.vb: // y's a2 before its b2
		if conflict(A.wa, B.wa) && conflict(A.wb, B.wb) {
			f.nested(x, y, A, B)
		}
	case B.va == A.vb && B.vb == A.va: // y's b2 (its first) before its a2
		if conflict(A.wa, B.wb) && conflict(A.wb, B.wa) {
			f.crossing(x, y, A, B)
		}
	}
}

// bigTwo compares x's big contents' 2v-blocks on the variables of each
// of y's blocks bs with them.
func (f *filter) bigTwo(x, y int32, bx *threadBlocks, bs []*twoBlock) {
	tx := f.ix.Threads[x]
	for _, ci := range bx.big {
		c, e := tx.Contents[ci], bx.irfw[ci]
		for _, B := range bs {
			for _, A := range blocksOn(c, ci, e, B.va, B.vb) {
				if !f.tick() {
					return
				}
				f.twoPair(x, y, A, B)
			}
		}
	}
}

// bigBig compares two big contents' 2v-blocks on the variables both have.
func (f *filter) bigBig(x, y int32, ci, di int32, bx, by *threadBlocks) {
	c, d := f.ix.Threads[x].Contents[ci], f.ix.Threads[y].Contents[di]
	ec, ed := bx.irfw[ci], by.irfw[di]
	sv := shared(c.vars, d.vars)
	for i, v := range sv {
		for _, w := range sv[i+1:] {
			for _, A := range blocksOn(c, ci, ec, v, w) {
				for _, B := range blocksOn(d, di, ed, A.va, A.vb) {
					if !f.tick() {
						return
					}
					f.twoPair(x, y, A, B)
				}
			}
		}
	}
}

// blocksOn are content c's 2v-blocks on variables v and w (its initial
// reads and final writes of them, the earlier first).
func blocksOn(c *Content, ci int32, e irfw, v, w int32) []*twoBlock {
	var out []*twoBlock
	for _, a := range e.of(v) {
		for _, b := range e.of(w) {
			first, second := a, b
			if c.Acc[a].Off > c.Acc[b].Off {
				first, second = b, a
			}
			out = append(out, newTwoBlock(c, ci, first, second))
		}
	}
	return out
}

// shared is the sorted intersection of two sorted sets of variables.
func shared(a, b []int32) []int32 {
	var out []int32
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}

// nested emits the disagreements of x's a, b with y's a2 before b2: y's
// two between x's (a < a2 … b2 < b) or x's two between y's (a2 < a … b <
// b2), when the locks and the forks and joins allow them.
func (f *filter) nested(x, y int32, A, B *twoBlock) {
	ix := f.ix
	if disjoint(B.span, A.h12) && ix.mayPrecede(x, A.ea, y, B.ea) && ix.mayPrecede(y, B.eb, x, A.eb) {
		f.add(TwoVariables, x, y, A.at, B.at, func(p, q at) (int32, int32, int32, int32) { return p.i, q.i, q.j, p.j })
	}
	// As x's b before y's b2, and y's a2 before x's a.
	if disjoint(A.span, B.h12) && ix.mayPrecede(y, B.ea, x, A.ea) && ix.mayPrecede(x, A.eb, y, B.eb) {
		f.add(TwoVariables, x, y, A.at, B.at, func(p, q at) (int32, int32, int32, int32) { return p.j, q.j, q.i, p.i })
	}
}

// crossing emits the disagreement of x's a, b with y's b2 before a2
// (B's first is b2, on b's variable): a < a2 and b2 < b, in one of four
// interleavings, each allowed by its locks: b2 a a2 b, b2 a b a2, a b2
// a2 b, a b2 b a2.
func (f *filter) crossing(x, y int32, A, B *twoBlock) {
	ha2, hb2 := B.hb, B.ha
	ok := disjoint(A.ha, B.h12) && disjoint(ha2, A.h12) ||
		disjoint(A.span, B.h12) ||
		disjoint(B.span, A.h12) ||
		disjoint(hb2, A.h12) && disjoint(A.hb, B.h12)
	if ok && f.ix.mayPrecede(x, A.ea, y, B.eb) && f.ix.mayPrecede(y, B.ea, x, A.eb) {
		f.add(TwoVariables, x, y, A.at, B.at, func(p, q at) (int32, int32, int32, int32) { return p.i, q.j, q.i, p.j })
	}
}
