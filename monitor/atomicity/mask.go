package atomicity

import "math/bits"

// mask is a set of slots, each slot the place of one open transaction: lo
// holds slots 0-63 and hi, nil while they are all empty, the rest (word i
// slots 64(i+1) to 64(i+1)+63). A trace rarely has more than 64
// transactions open at once, so lo is most of the work. A mask stored in
// a record never changes afterwards (frozen: its hi is not shared with a
// thread's, which grows in place), and keeps only the words of hi from
// its first non-zero one to its last: a thread that knows one slot among
// thousands records one word.
type mask struct {
	lo  uint64
	hi  []uint64
	off int32 // a frozen mask's hi starts at word off (leading zero words left out)
}

// news tells whether a record's mask m can matter to th, whose busy slots
// (below 64) are busy: whether it may hold a slot th does not know of, or
// th's own transaction's (the check). A record that says no is skipped
// without being validated; one past the first word always goes the slow
// way.
func (m *mask) news(th *thread, busy uint64) bool {
	return m.lo&busy&^(th.m.lo&^th.own) != 0 || m.hi != nil || th.ownHigh()
}

func (m *mask) has(s int32) bool {
	if s < 64 {
		return m.lo&(1<<s) != 0
	}
	w := int(s/64) - 1 - int(m.off)
	return w >= 0 && w < len(m.hi) && m.hi[w]&(1<<(s%64)) != 0
}

// add puts s in a thread's mask (never a frozen one: off is 0).
func (m *mask) add(s int32) {
	if s < 64 {
		m.lo |= 1 << s
		return
	}
	w := int(s/64) - 1
	for len(m.hi) <= w {
		m.hi = append(m.hi, 0)
	}
	m.hi[w] |= 1 << (s % 64)
}

func (m *mask) remove(s int32) {
	if s < 64 {
		m.lo &^= 1 << s
	} else if w := int(s/64) - 1 - int(m.off); w >= 0 && w < len(m.hi) {
		m.hi[w] &^= 1 << (s % 64)
	}
}

// frozen is a copy of m that later changes of m do not touch.
func (m mask) frozen() mask {
	if m.hi == nil {
		return m
	}
	first, last := 0, len(m.hi)
	for first < last && m.hi[first] == 0 {
		first++
	}
	for last > first && m.hi[last-1] == 0 {
		last--
	}
	if first == last {
		return mask{lo: m.lo}
	}
	return mask{lo: m.lo, hi: append([]uint64(nil), m.hi[first:last]...), off: m.off + int32(first)}
}

// each calls f for every slot of m.
func (m *mask) each(f func(s int32)) {
	for w := m.lo; w != 0; w &= w - 1 {
		f(trailing(w))
	}
	for i, word := range m.hi {
		for w := word; w != 0; w &= w - 1 {
			f(int32(64*(i+1+int(m.off))) + trailing(w))
		}
	}
}

// trailing is the lowest slot of a non-empty word.
func trailing(w uint64) int32 { return int32(bits.TrailingZeros64(w)) }
