package monitor

import "math/bits"

// Reachability bits. Each open transaction X with a slot b (one of 64) puts
// bit b on what it reaches, so "does X reach u" — the question behind every
// new edge u -> X (Lemma 1: the edge closes a cycle iff so) — is one AND
// instead of a search. Open transactions of one strongly connected
// component reach the same transactions, so one bit per component is
// enough. Invariant: every transaction reached by an open transaction X
// carries a bit of an open transaction in X's component (findTxn(X).sbits).
// A bit is set once per transaction while its owner is open, and handed
// over or cleared when the owner completes (a completed transaction takes no
// new in-edge, so nobody asks about it again): the total work is linear in
// the reach of the open transactions. A transaction opened while all 64
// slots are taken goes without, and its questions fall back to the search
// of closures.
const traceSlots = 64

type traceSlot struct {
	owner   *traceTxn
	reached []*traceTxn // transactions carrying the bit
}

// takeSlot gives the new open transaction x a slot if one is free.
func (m *TraceMonitor) takeSlot(x *traceTxn) {
	x.slot = -1
	if m.free == 0 {
		return
	}
	b := bits.TrailingZeros64(m.free)
	m.free &^= 1 << b
	x.slot = int8(b)
	x.mask |= 1 << b
	x.sbits = 1 << b
	m.slots[b] = traceSlot{owner: x, reached: append(m.slots[b].reached[:0], x)}
}

// dropSlot clears x's bit everywhere once x has completed, handing it over
// to another open transaction of x's component where it was the only one.
// A completed transaction left with no bit is garbage from now on, and is
// let go at once (x itself is its caller's to let go).
func (m *TraceMonitor) dropSlot(x *traceTxn) {
	if x.slot < 0 {
		return
	}
	b := x.slot
	s := &m.slots[b]
	rep := findTxn(x)
	rep.sbits &^= 1 << b
	heir := -1
	if rep.sbits != 0 {
		heir = bits.TrailingZeros64(rep.sbits)
	}
	for i, n := range s.reached {
		n.mask &^= 1 << b
		if heir >= 0 && n.mask&rep.sbits == 0 {
			n.mask |= 1 << heir
			m.slots[heir].reached = append(m.slots[heir].reached, n)
		}
		s.reached[i] = nil // (clear would be a call, for usually one)
		if !n.open && n != x && m.garbage(n) {
			m.becameGarbage(n) // x was the last open transaction to reach n
		}
	}
	s.owner, s.reached = nil, s.reached[:0]
	m.free |= 1 << b
	x.slot = -1
}

// flow passes the bits of a new edge's source u on to x and everything x
// reaches: whoever reaches u now reaches them too.
func (m *TraceMonitor) flow(u, x *traceTxn) {
	for b := u.mask &^ x.mask; b != 0; b &= b - 1 {
		m.flood(x, bits.TrailingZeros64(b))
	}
}

// flood sets bit b on x and, depth first, on every successor that carries
// no bit of b's component (one that does, and so its successors, is covered).
func (m *TraceMonitor) flood(x *traceTxn, b int) {
	bit := uint64(1) << b
	s := &m.slots[b]
	comp := findTxn(s.owner).sbits
	if x.mask&comp != 0 {
		return
	}
	stack := append(m.stack[:0], x)
	x.mask |= bit
	s.reached = append(s.reached, x)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range n.out {
			if e.to.mask&comp == 0 {
				e.to.mask |= bit
				s.reached = append(s.reached, e.to)
				stack = append(stack, e.to)
			}
		}
	}
	m.stack = stack[:0]
}

// reachBits are the bits that mark what the open transaction x (with a
// slot) reaches: u.mask&reachBits(x) != 0 iff x reaches u.
func reachBits(x *traceTxn) uint64 { return findTxn(x).sbits }

// findTxn is the representative of n's strongly connected component among the
// transactions found on cycles so far (union-find with path halving).
func findTxn(n *traceTxn) *traceTxn {
	for n.scc != nil {
		if n.scc.scc != nil {
			n.scc = n.scc.scc
		}
		n = n.scc
	}
	return n
}

// unionTxn merges the components of a and b: a cycle passes through both.
func unionTxn(a, b *traceTxn) {
	ra, rb := findTxn(a), findTxn(b)
	if ra == rb {
		return
	}
	if ra.size < rb.size {
		ra, rb = rb, ra
	}
	rb.scc = ra
	ra.size += rb.size + 1
	ra.sbits |= rb.sbits
}

// pruneSlots forgets collected transactions in the slots' lists.
func (m *TraceMonitor) pruneSlots() {
	for b := range m.slots {
		s := &m.slots[b]
		k := 0
		for _, n := range s.reached {
			if !n.dead {
				s.reached[k] = n
				k++
			}
		}
		clear(s.reached[k:])
		s.reached = s.reached[:k]
		if cap(s.reached) > 4*k+1024 { // let a list that once grew large shrink
			s.reached = append([]*traceTxn(nil), s.reached...)
		}
	}
}
