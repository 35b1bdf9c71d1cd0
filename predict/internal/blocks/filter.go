package blocks

// The block test (the paper's isAtomic1vBlk and isAtomic2vBlk). Two
// transactions t (of thread X) and u (of Y) interleaved alone, as σ, are
// view-equivalent to t·u or u·t unless σ has one of these patterns
// (docs/predict.md, "View serializability of two transactions", proves
// that they are all):
//
//   - 1v-blocks (two events of t on one variable v, an event of u on v
//     between them): two writes of t with no write between, and an
//     initial read of u (ReadBetweenWrites); two initial reads of t, and
//     a write of u (WriteBetweenReads); a write of t and its next read,
//     and a write of u (WriteBeforeRead); an initial read of t and a
//     later write, and u's final write (FinalWriteBetween).
//   - 2v-blocks (initial reads and final writes of t on two variables x
//     and y, and u's of the same): the pair of x orders t before u (t's
//     event comes first and they conflict), the pair of y orders u
//     before t (TwoVariables).
//
// Each pattern is a cycle of two conflicts, X's event before Y's and Y's
// before X's: an Instance. The test keeps the patterns that the locks and
// the order of forks and joins do not rule out in every run; that is
// only a necessary condition for a run to have it (a potential deadlock,
// a lock held to the end, a lock passed on from section to section, make
// it insufficient), so each is then searched for a run (search.go).

// Kind is an unserializable pattern.
type Kind uint8

const (
	ReadBetweenWrites Kind = iota
	WriteBetweenReads
	WriteBeforeRead
	FinalWriteBetween
	TwoVariables
)

// Instance is a pattern between two contents: X's access A0 before Y's
// A1, and Y's B1 before X's B0 (A1 = B1 for a 1v-block's; X's two then
// are the block's, A0 first). Accesses index the contents' Acc.
type Instance struct {
	Kind   Kind
	X, Y   int32 // threads
	CX, CY int32 // their contents
	A0, B0 int32 // X's accesses
	A1, B1 int32 // Y's accesses
}

// filter enumerates the test's instances, counting its work: each pair
// of contents' instances go to emit together.
type filter struct {
	ix    *Index
	work  int64
	emit  func([]Instance) bool // false: stop
	limit func(work int64) bool // true: stop (a budget, the deadline)
	stop  bool
	out   []Instance
}

// pairs runs the test over every two contents of different threads that
// share a variable, until emit says stop.
func (f *filter) pairs() {
	for x := range f.ix.Threads {
		for y := x + 1; y < len(f.ix.Threads) && !f.stop; y++ {
			f.threads(int32(x), int32(y))
		}
	}
}

// threads compares every content of thread x with every content of y.
func (f *filter) threads(x, y int32) {
	tx, ty := f.ix.Threads[x], f.ix.Threads[y]
	for cx := range tx.Contents {
		for cy := range ty.Contents {
			if f.stop {
				return
			}
			f.work++
			if f.limit != nil && f.limit(f.work) {
				f.stop = true
				return
			}
			sv := shared(tx.Contents[cx].vars, ty.Contents[cy].vars)
			if len(sv) == 0 {
				continue
			}
			f.out = f.out[:0]
			p := pairOf{f: f, X: x, Y: y, CX: int32(cx), CY: int32(cy), c: tx.Contents[cx], d: ty.Contents[cy]}
			p.oneV(sv)
			p.swap().oneV(sv)
			p.twoV(sv)
			if len(f.out) > 0 && !f.emit(f.out) {
				f.stop = true
			}
		}
	}
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

// pairOf is one pair of contents, c of thread X and d of Y.
type pairOf struct {
	f      *filter
	X, Y   int32
	CX, CY int32
	c, d   *Content
}

// swap is the pair seen from the other side.
func (p pairOf) swap() pairOf {
	return pairOf{f: p.f, X: p.Y, Y: p.X, CX: p.CY, CY: p.CX, c: p.d, d: p.c}
}

// add keeps an instance.
func (p pairOf) add(k Kind, a0, a1, b1, b0 int32) {
	p.f.out = append(p.f.out, Instance{Kind: k, X: p.X, Y: p.Y, CX: p.CX, CY: p.CY, A0: a0, A1: a1, B1: b1, B0: b0})
}

// precedes reports that thread t's events of epoch e come before thread
// u's events of epoch g in every run (forks and joins: hb.FJ).
func (ix *Index) precedes(t, e, u, g int32) bool {
	th := ix.Threads[t]
	end := th.Edges
	if int(e)+1 < len(th.epochStart) {
		end = th.epochStart[e+1]
	}
	return end <= ix.fj.Before(u, g, t)
}

// mayPrecede reports that access a of X may come before access b of Y in
// some run, as far as forks and joins tell.
func (p pairOf) mayPrecede(a *Access, xa int32, b *Access, yb int32) bool {
	return !p.f.ix.precedes(yb, b.Epoch, xa, a.Epoch)
}

// oneV looks for the 1v-block patterns with the block in c and the event
// between in d.
func (p pairOf) oneV(vars []int32) {
	for _, v := range vars {
		for _, pr := range outerPairs(p.c, p.c.byVar[v]) {
			e1, e2 := &p.c.Acc[pr[0]], &p.c.Acc[pr[1]]
			k := kindOf(e1, e2)
			h := held12(e1, e2)
			for _, j := range p.d.byVar[v] {
				p.f.work++
				op := &p.d.Acc[j]
				if fits(k, op) && disjoint(op.locks(), h) &&
					p.mayPrecede(e1, p.X, op, p.Y) && p.mayPrecede(op, p.Y, e2, p.X) {
					p.add(k, pr[0], j, j, pr[1])
				}
			}
		}
	}
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
	if ir >= 0 && fw >= 0 {
		if pr := [2]int32{ir, fw}; len(out) == 0 || !containsPair(out, pr) {
			out = append(out, pr)
		}
	}
	return out
}

func containsPair(ps [][2]int32, p [2]int32) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// kindOf is the pattern a block of these two accesses can make.
func kindOf(e1, e2 *Access) Kind {
	switch {
	case e1.Write && e2.Write:
		return ReadBetweenWrites
	case e1.Write:
		return WriteBeforeRead
	case e2.Write:
		return FinalWriteBetween
	}
	return WriteBetweenReads
}

// fits reports that op, between a block's two accesses, makes pattern k.
func fits(k Kind, op *Access) bool {
	switch k {
	case ReadBetweenWrites:
		return op.IR
	case FinalWriteBetween:
		return op.FW
	}
	return op.Write
}
