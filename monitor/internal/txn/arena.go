package txn

// arenaChunk is how many transactions one allocation of the arena holds.
const arenaChunk = 1024

// keepEdges is the most edges a recycled transaction's slices keep room for.
const keepEdges = 16

// Arena holds the transactions: they live in fixed-size chunks, and those
// that a collection finds dead are recycled through a free list, keeping
// the edge slices they had grown. In the steady state a step then allocates nothing:
// the heap stops churning one node (and its edge slices) per transaction,
// which had made Go's garbage collector half the monitor's cost. Chunks
// never move, so pointers to transactions stay valid; the price is that a
// pointer to a recycled node must be recognised as such: records by their
// line (Src.Stale), edges and components by never being walked (the
// monitor's collection drops edges to dead nodes and rehomes components).
type Arena struct {
	chunk []Txn  // the chunk being filled
	free  []*Txn // dead transactions, ready for reuse
}

// Alloc returns a zeroed transaction whose edge slices are empty, reusing
// a dead one (and its slices' capacity) when there is one.
func (a *Arena) Alloc() *Txn {
	if k := len(a.free); k > 0 {
		x := a.free[k-1]
		a.free = a.free[:k-1]
		out, in := x.Out[:0], x.In[:0]
		*x = Txn{}
		x.Out, x.In = x.Buf[:0:1], x.Buf[1:1:2]
		// A slice of its own is kept (the inline lists, one edge or two
		// after SpreadIn, start afresh); one with room for one edge is
		// worth no more than the inline one.
		if cap(out) > 1 && !x.Owns(out) {
			x.Out = out
		}
		if cap(in) > 1 && !x.Owns(in) {
			x.In = in
		}
		return x
	}
	if len(a.chunk) == 0 {
		a.chunk = make([]Txn, arenaChunk)
	}
	x := &a.chunk[0]
	a.chunk = a.chunk[1:]
	x.Out, x.In = x.Buf[:0:1], x.Buf[1:1:2]
	return x
}

// Release hands a dead transaction back for reuse. Stale edges past the
// slices' ends are not cleared: they point into the arena, which the
// collector never frees anyway, and nothing reads past a slice's end.
// A slice grown past keepEdges is let go instead: kept, the capacities
// would ratchet up to the largest degree each arena slot ever saw.
func (a *Arena) Release(x *Txn) {
	x.Begin = NeverBegun // every record that names x is stale
	x.Out, x.In = x.Out[:0], x.In[:0]
	if cap(x.Out) > keepEdges {
		x.Out = nil
	}
	if cap(x.In) > keepEdges {
		x.In = nil
	}
	a.free = append(a.free, x)
}
