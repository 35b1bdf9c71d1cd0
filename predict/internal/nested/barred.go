package nested

// The three barriers of case B (index.go) between T1's e1 and its
// current position, just before e2, and T2's class c, with histories held
// as a depth per lock (locks.go). Each barrier is looked up
// from T2's side, its held locks and histories, each lock of which is
// found in T1's stack by a map: the time is their length, where a walk
// over T1's sections and lock pairs took the square of the nesting depth.

// barred reports one of the barriers and how many locks it looked up (the
// meeting's budget counts them). W, the sections held throughout, are
// those of e1 still held: T1's stack up to w.
func (m *Meeter) barred(e1 *firstAccess, t1 *thread, c *class) (bool, int64) {
	held := c.ctx.held
	if len(held) == 0 {
		return false, 1 // every barrier needs a lock T2 holds at f
	}
	stack := t1.stack
	w := 0
	for w < len(e1.secs) && w < len(stack) && e1.secs[w] == stack[w] {
		w++
	}
	looked := int64(w)
	if w == 0 {
		return false, looked
	}
	if cap(m.scratch) < len(held) {
		m.scratch = make([]int32, 2*len(held))
	}
	pos := m.scratch[:len(held)] // each lock of held's index in T1's stack (-1: not held)
	for q, l := range held {
		looked++
		if pos[q] = int32(t1.posOf(l)); pos[q] >= 0 && int(pos[q]) < w {
			return true, looked // 1: a lock of W held by T2 at f
		}
	}
	looked += int64(len(c.ctx.back) + len(c.ctx.fwd))
	if crossedBefore(e1, t1, c, w) || crossedAfter(t1, c, pos, w) {
		return true, looked
	}
	return false, looked
}

// crossedBefore is barrier 2: k2 = stack[i] in W and k1 acquired by T1
// inside k2's section by e1 (i below k1's depth at e1), while T2 holds k1
// at f, at index p, and acquired k2 inside its section before f (p below
// k2's depth in T2's backward history). For each p, the least i of a k2
// whose depth exceeds p is a suffix minimum over the depths.
func crossedBefore(e1 *firstAccess, t1 *thread, c *class, w int) bool {
	held := c.ctx.held
	least := make([]int32, len(held)) // by depth-1: the least i of a k2 in W
	for p := range least {
		least[p] = int32(w)
	}
	for _, b := range c.ctx.back {
		if i := t1.posOf(b.lock); i >= 0 && i < w && int32(i) < least[b.depth-1] {
			least[b.depth-1] = int32(i)
		}
	}
	cur := int32(w)
	for p := len(held) - 1; p >= 0; p-- {
		cur = min(cur, least[p])
		if cur >= int32(w) {
			continue
		}
		n := t1.lastBefore(held[p], e1.acqs) // k1 = held[p]
		if n >= 0 && int(cur) < depthBefore(e1.secs, n) {
			return true
		}
	}
	return false
}

// crossedAfter is barrier 3: k1 = stack[i] in W and k2 = stack[j], j > i,
// while T2 holds k2 at f, at index q, and acquires k1 inside its section
// after f (q below k1's depth in T2's forward history). For each depth,
// the greatest j among T2's first depth locks is a prefix maximum.
func crossedAfter(t1 *thread, c *class, pos []int32, w int) bool {
	if len(c.ctx.fwd) == 0 {
		return false
	}
	most := make([]int32, len(pos)+1) // most[d]: the greatest j of held[:d]
	most[0] = -1
	for q, j := range pos {
		most[q+1] = max(most[q], j)
	}
	for _, f := range c.ctx.fwd {
		if i := t1.posOf(f.lock); i >= 0 && i < w && most[f.depth] > int32(i) {
			return true
		}
	}
	return false
}
