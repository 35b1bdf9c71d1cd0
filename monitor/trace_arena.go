package monitor

// The transactions live in an arena of fixed-size chunks, and those that a
// collection finds dead are recycled through a free list, keeping the edge
// slices they had grown. In the steady state a step then allocates nothing:
// the heap stops churning one node (and its edge slices) per transaction,
// which had made Go's garbage collector half the monitor's cost. Chunks
// never move, so pointers to transactions stay valid; the price is that a
// pointer to a recycled node must be recognised as such: records by their
// line (trace_garbage.go), edges and components by never being walked
// (releaseGarbage, rehomeComponents).

// arenaChunk is how many transactions one allocation of the arena holds.
const arenaChunk = 1024

// keepEdges is the most edges a recycled transaction's slices keep room for.
const keepEdges = 16

type txnArena struct {
	chunk []traceTxn  // the chunk being filled
	free  []*traceTxn // dead transactions, ready for reuse
}

// alloc returns a zeroed transaction whose edge slices are empty, reusing
// a dead one (and its slices' capacity) when there is one.
func (a *txnArena) alloc() *traceTxn {
	if k := len(a.free); k > 0 {
		x := a.free[k-1]
		a.free = a.free[:k-1]
		out, in := x.out[:0], x.in[:0]
		*x = traceTxn{}
		x.out, x.in = x.buf[:0:1], x.buf[1:1:2]
		// A slice of its own is kept (the inline lists, one edge or two
		// after spreadIn, start afresh); one with room for one edge is
		// worth no more than the inline one.
		if cap(out) > 1 && !x.owns(out) {
			x.out = out
		}
		if cap(in) > 1 && !x.owns(in) {
			x.in = in
		}
		return x
	}
	if len(a.chunk) == 0 {
		a.chunk = make([]traceTxn, arenaChunk)
	}
	x := &a.chunk[0]
	a.chunk = a.chunk[1:]
	x.out, x.in = x.buf[:0:1], x.buf[1:1:2]
	return x
}

// release hands a dead transaction back for reuse. Stale edges past the
// slices' ends are not cleared: they point into the arena, which the
// collector never frees anyway, and nothing reads past a slice's end.
// A slice grown past keepEdges is let go instead: kept, the capacities
// would ratchet up to the largest degree each arena slot ever saw.
func (a *txnArena) release(x *traceTxn) {
	x.begin = neverBegun // every record that names x is stale
	x.out, x.in = x.out[:0], x.in[:0]
	if cap(x.out) > keepEdges {
		x.out = nil
	}
	if cap(x.in) > keepEdges {
		x.in = nil
	}
	a.free = append(a.free, x)
}

// rehomeComponents points every kept transaction straight at a live
// representative of its strongly connected component: where the old
// representative is dead, the first kept member found takes over its
// component bits. Afterwards no kept transaction's scc names a dead one.
func (m *TraceMonitor) rehomeComponents() {
	for _, n := range m.nodes {
		r := findTxn(n)
		if r.dead {
			// n becomes the representative; r forwards to it until reused.
			n.scc, n.sbits, n.size = nil, r.sbits, r.size
			r.scc, r.sbits = n, 0
			r = n
		}
		if r != n {
			n.scc = r
		}
	}
}
