package monitor

import (
	"math/bits"

	"github.com/conc-dev/conc/monitor/internal/txn"
)

// Reachability bits. Each open transaction X with a slot b (one of 64) puts
// bit b on what it reaches, so "does X reach u" — the question behind every
// new edge u -> X (Lemma 1: the edge closes a cycle iff so) — is one AND
// instead of a search. Open transactions of one strongly connected
// component reach the same transactions, so one bit per component is
// enough. Invariant: every transaction reached by an open transaction X
// carries a bit of an open transaction in X's component (txn.Find(X).SBits).
// A bit is set once per transaction while its owner is open, and handed
// over or cleared when the owner completes (a completed transaction takes no
// new in-edge, so nobody asks about it again): the total work is linear in
// the reach of the open transactions. A transaction opened while all 64
// slots are taken goes without, and its questions fall back to the search
// of closures.
const traceSlots = 64

type traceSlot struct {
	owner   *txn.Txn
	reached []*txn.Txn // transactions carrying the bit
}

// takeSlot gives the new open transaction x a slot if one is free.
func (m *TraceMonitor) takeSlot(x *txn.Txn) {
	x.Slot = -1
	if m.free == 0 {
		return
	}
	b := bits.TrailingZeros64(m.free)
	m.free &^= 1 << b
	x.Slot = int8(b)
	x.Mask |= 1 << b
	x.SBits = 1 << b
	m.slots[b] = traceSlot{owner: x, reached: append(m.slots[b].reached[:0], x)}
}

// dropSlot clears x's bit everywhere once x has completed, handing it over
// to another open transaction of x's component where it was the only one.
// A completed transaction left with no bit is garbage from now on, and is
// let go at once (x itself is its caller's to let go).
func (m *TraceMonitor) dropSlot(x *txn.Txn) {
	if x.Slot < 0 {
		return
	}
	b := x.Slot
	s := &m.slots[b]
	rep := txn.Find(x)
	rep.SBits &^= 1 << b
	heir := -1
	if rep.SBits != 0 {
		heir = bits.TrailingZeros64(rep.SBits)
	}
	for i, n := range s.reached {
		n.Mask &^= 1 << b
		if heir >= 0 && n.Mask&rep.SBits == 0 {
			n.Mask |= 1 << heir
			m.slots[heir].reached = append(m.slots[heir].reached, n)
		}
		s.reached[i] = nil // (clear would be a call, for usually one)
		if !n.Open && n != x && m.garbage(n) {
			m.becameGarbage(n) // x was the last open transaction to reach n
		}
	}
	s.owner, s.reached = nil, s.reached[:0]
	m.free |= 1 << b
	x.Slot = -1
}

// flow passes the bits of a new edge's source u on to x and everything x
// reaches: whoever reaches u now reaches them too.
func (m *TraceMonitor) flow(u, x *txn.Txn) {
	for b := u.Mask &^ x.Mask; b != 0; b &= b - 1 {
		m.flood(x, bits.TrailingZeros64(b))
	}
}

// flood sets bit b on x and, depth first, on every successor that carries
// no bit of b's component (one that does, and so its successors, is covered).
func (m *TraceMonitor) flood(x *txn.Txn, b int) {
	bit := uint64(1) << b
	s := &m.slots[b]
	comp := txn.Find(s.owner).SBits
	if x.Mask&comp != 0 {
		return
	}
	stack := append(m.stack[:0], x)
	x.Mask |= bit
	s.reached = append(s.reached, x)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range n.Out {
			if e.To.Mask&comp == 0 {
				e.To.Mask |= bit
				s.reached = append(s.reached, e.To)
				stack = append(stack, e.To)
			}
		}
	}
	m.stack = stack[:0]
}

// reachBits are the bits that mark what the open transaction x (with a
// slot) reaches: u.mask&reachBits(x) != 0 iff x reaches u.
func reachBits(x *txn.Txn) uint64 { return txn.Find(x).SBits }

// pruneSlots forgets collected transactions in the slots' lists.
func (m *TraceMonitor) pruneSlots() {
	for b := range m.slots {
		s := &m.slots[b]
		k := 0
		for _, n := range s.reached {
			if !n.Dead {
				s.reached[k] = n
				k++
			}
		}
		clear(s.reached[k:])
		s.reached = s.reached[:k]
		if cap(s.reached) > 4*k+1024 { // let a list that once grew large shrink
			s.reached = append([]*txn.Txn(nil), s.reached...)
		}
	}
}

// rehomeComponents points every kept transaction straight at a live
// representative of its strongly connected component: where the old
// representative is dead, the first kept member found takes over its
// component bits. Afterwards no kept transaction's scc names a dead one.
func (m *TraceMonitor) rehomeComponents() {
	for _, n := range m.nodes {
		r := txn.Find(n)
		if r.Dead {
			// n becomes the representative; r forwards to it until reused.
			n.SCC, n.SBits, n.Size = nil, r.SBits, r.Size
			r.SCC, r.SBits = n, 0
			r = n
		}
		if r != n {
			n.SCC = r
		}
	}
}
