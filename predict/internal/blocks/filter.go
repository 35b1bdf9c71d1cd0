package blocks

import (
	"slices"
)

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
// it insufficient), so each is then searched for a run (grid.go).
//
// As in the paper, a block is kept once per thread with where it occurs:
// what the test compares is a block's variables, ops, locks and epochs,
// so two threads' blocks are compared once, however many transactions
// share them.

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

// at is where a block or an access occurs: a content and one or two of
// its accesses.
type at struct {
	c    int32
	i, j int32
}

// filter enumerates the test's instances as it finds them, counting its
// work.
type filter struct {
	ix    *Index
	work  int64
	emit  func(Instance) bool   // false: stop
	limit func(work int64) bool // true: stop (a budget, the deadline)
	stop  bool
}

// pairs runs the test over every two threads, until emit says stop.
func (f *filter) pairs() {
	for _, th := range f.ix.Threads {
		th.blocks(f)
	}
	for x := range f.ix.Threads {
		for y := x + 1; y < len(f.ix.Threads) && !f.stop; y++ {
			f.threads(int32(x), int32(y))
		}
	}
}

// threads compares the blocks of threads x and y.
func (f *filter) threads(x, y int32) {
	tx, ty := f.ix.Threads[x], f.ix.Threads[y]
	f.oneV(x, y, tx.bs, ty.bs)
	f.oneV(y, x, ty.bs, tx.bs)
	f.twoV(x, y, tx.bs, ty.bs)
}

// tick counts work and looks at the limit.
func (f *filter) tick() bool {
	f.work++
	if !f.stop && f.limit != nil && f.limit(f.work) {
		f.stop = true
	}
	return !f.stop
}

// add emits an instance for each pair of occurrences.
func (f *filter) add(k Kind, x, y int32, xs, ys []at, mk func(p, q at) (a0, a1, b1, b0 int32)) {
	for _, p := range xs {
		for _, q := range ys {
			if f.stop {
				return
			}
			a0, a1, b1, b0 := mk(p, q)
			if !f.emit(Instance{Kind: k, X: x, Y: y, CX: p.c, CY: q.c, A0: a0, A1: a1, B1: b1, B0: b0}) {
				f.stop = true
			}
		}
	}
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

// mayPrecede reports that an access of thread x in epoch ex may come
// before one of y in epoch ey in some run, as far as forks and joins
// tell.
func (ix *Index) mayPrecede(x, ex, y, ey int32) bool { return !ix.precedes(y, ey, x, ex) }

// oneV compares x's 1v-blocks with y's accesses between them.
func (f *filter) oneV(x, y int32, bx, by *threadBlocks) {
	for _, b := range bx.one {
		for _, op := range by.ops[b.v] {
			if !f.tick() {
				return
			}
			if fits(b.k, op) && disjoint(op.held, b.h12) &&
				f.ix.mayPrecede(x, b.e1, y, op.epoch) && f.ix.mayPrecede(y, op.epoch, x, b.e2) {
				f.add(b.k, x, y, b.at, op.at, func(p, q at) (int32, int32, int32, int32) { return p.i, q.i, q.i, p.j })
			}
		}
	}
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
func fits(k Kind, op *opBlock) bool {
	switch k {
	case ReadBetweenWrites:
		return op.ir
	case FinalWriteBetween:
		return op.fw
	}
	return op.write
}

// sortedLocks is a set of locks, sorted.
func sortedLocks(ls []int32) []int32 {
	out := slices.Clone(ls)
	slices.Sort(out)
	return slices.Compact(out)
}
