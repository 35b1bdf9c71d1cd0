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

// irfw is a content's first initial read and final write of each shared
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

// events are the initial reads and final writes of these variables, in
// program order.
func (e irfw) events(c *Content, vars []int32) []int32 {
	var out []int32
	for i := range c.Acc {
		a := &c.Acc[i]
		v := a.Var
		if _, ok := e.ir[v]; ok && (e.ir[v] == int32(i) || e.fw[v] == int32(i)) {
			out = append(out, int32(i))
		}
	}
	return out
}

// of is the variable's initial read and final write that exist.
func (e irfw) of(v int32) []int32 {
	var out []int32
	for _, i := range []int32{e.ir[v], e.fw[v]} {
		if i >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// twoV looks for the 2v-block patterns of c's blocks against d's.
func (p pairOf) twoV(vars []int32) {
	if len(vars) < 2 {
		return
	}
	ec, ed := irfwOf(p.c, vars), irfwOf(p.d, vars)
	evs := ec.events(p.c, vars)
	for i, ai := range evs {
		for _, bi := range evs[i+1:] {
			a, b := &p.c.Acc[ai], &p.c.Acc[bi]
			if a.Var == b.Var {
				continue
			}
			for _, ai2 := range ed.of(a.Var) {
				for _, bi2 := range ed.of(b.Var) {
					p.f.work++
					if conflict(a, &p.d.Acc[ai2]) && conflict(b, &p.d.Acc[bi2]) {
						p.disagree(ai, bi, ai2, bi2)
					}
				}
			}
		}
	}
}

func conflict(a, b *Access) bool { return a.Write || b.Write }

// disagree emits the orders of c's a, b (a first) and d's a2 (a's
// variable), b2 (b's) that make the pairs disagree, when the locks and
// the forks and joins allow them.
func (p pairOf) disagree(ai, bi, ai2, bi2 int32) {
	a, b, a2, b2 := &p.c.Acc[ai], &p.c.Acc[bi], &p.d.Acc[ai2], &p.d.Acc[bi2]
	hc, hd := held12(a, b), held12(a2, b2)
	if a2.Off < b2.Off {
		// d's inside c's: a < a2 … b2 < b.
		if disjoint(p.d.span(a2, b2), hc) && p.mayPrecede(a, p.X, a2, p.Y) && p.mayPrecede(b2, p.Y, b, p.X) {
			p.add(TwoVariables, ai, ai2, bi2, bi)
		}
		// c's inside d's: a2 < a … b < b2, as X's b before Y's b2 and
		// Y's a2 before X's a.
		if disjoint(p.c.span(a, b), hd) && p.mayPrecede(a2, p.Y, a, p.X) && p.mayPrecede(b, p.X, b2, p.Y) {
			p.add(TwoVariables, bi, bi2, ai2, ai)
		}
		return
	}
	// b2 before a2 in d: a < a2 and b2 < b, in one of four interleavings.
	hd = held12(b2, a2)
	crossing := disjoint(a.locks(), hd) && disjoint(a2.locks(), hc) || // b2 a a2 b
		disjoint(p.c.span(a, b), hd) || // b2 a b a2
		disjoint(p.d.span(b2, a2), hc) || // a b2 a2 b
		disjoint(b2.locks(), hc) && disjoint(b.locks(), hd) // a b2 b a2
	if crossing && p.mayPrecede(a, p.X, a2, p.Y) && p.mayPrecede(b2, p.Y, b, p.X) {
		p.add(TwoVariables, ai, ai2, bi2, bi)
	}
}
