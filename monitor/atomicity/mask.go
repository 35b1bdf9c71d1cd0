package atomicity

import "math/bits"

// mask is a set of slots, each slot the place of one open transaction: lo
// holds slots 0-63 and hi, nil while they are all empty, the rest (word i
// of hi.w holds slots 64(i+1+hi.off) to 64(i+1+hi.off)+63). A trace rarely
// has more than 64 transactions open at once, so lo is most of the work,
// and a mask is two words: a variable's record, with its line, thread and
// location, is 32 bytes. A mask stored in a record never changes
// afterwards (frozen: its hi is not shared with a thread's, which grows
// in place), and keeps only the words of hi from its first non-zero one
// to its last: a thread that knows one slot among thousands records one
// word.
type mask struct {
	lo uint64
	hi *highWords
}

// highWords are a mask's slots past the first 64: w starts at word off
// (leading zero words left out; a thread's own mask has off 0).
type highWords struct {
	w   []uint64
	off int32
}

// words is the number of high words m holds.
func (m *mask) words() int {
	if m.hi == nil {
		return 0
	}
	return len(m.hi.w)
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
	if m.hi == nil {
		return false
	}
	w := int(s/64) - 1 - int(m.hi.off)
	return w >= 0 && w < len(m.hi.w) && m.hi.w[w]&(1<<(s%64)) != 0
}

// add puts s in a thread's mask (never a frozen one: off is 0).
func (m *mask) add(s int32) {
	if s < 64 {
		m.lo |= 1 << s
		return
	}
	if m.hi == nil {
		m.hi = &highWords{}
	}
	w := int(s/64) - 1
	for len(m.hi.w) <= w {
		m.hi.w = append(m.hi.w, 0)
	}
	m.hi.w[w] |= 1 << (s % 64)
}

func (m *mask) remove(s int32) {
	if s < 64 {
		m.lo &^= 1 << s
	} else if m.hi != nil {
		if w := int(s/64) - 1 - int(m.hi.off); w >= 0 && w < len(m.hi.w) {
			m.hi.w[w] &^= 1 << (s % 64)
		}
	}
}

// frozen is a copy of m that later changes of m do not touch.
func (m mask) frozen() mask {
	if m.hi == nil {
		return m
	}
	first, last := 0, len(m.hi.w)
	for first < last && m.hi.w[first] == 0 {
		first++
	}
	for last > first && m.hi.w[last-1] == 0 {
		last--
	}
	if first == last {
		return mask{lo: m.lo}
	}
	return mask{lo: m.lo, hi: &highWords{w: append([]uint64(nil), m.hi.w[first:last]...), off: m.hi.off + int32(first)}}
}

// copied is m with its own copy of hi, which the caller may change.
func (m mask) copied() mask {
	if m.hi != nil {
		m.hi = &highWords{w: append([]uint64(nil), m.hi.w...), off: m.hi.off}
	}
	return m
}

// each calls f for every slot of m.
func (m *mask) each(f func(s int32)) {
	for w := m.lo; w != 0; w &= w - 1 {
		f(trailing(w))
	}
	if m.hi == nil {
		return
	}
	for i, word := range m.hi.w {
		for w := word; w != 0; w &= w - 1 {
			f(int32(64*(i+1+int(m.hi.off))) + trailing(w))
		}
	}
}

// trailing is the lowest slot of a non-empty word.
func trailing(w uint64) int32 { return int32(bits.TrailingZeros64(w)) }
