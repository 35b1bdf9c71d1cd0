package atomicity

// clock is a vector clock over thread ids: clock[u] is the version of
// thread u that is known. A thread's own entry is its current version; it
// moves when the thread begins a transaction or learns something new, and
// a snapshot of the clock at one version never changes, so records of
// events share it.
type clock []uint32

// knows tells whether c knows version v of thread u.
func (c clock) knows(u int32, v uint32) bool { return v == 0 || int(u) < len(c) && c[u] >= v }

// at is c's entry for u (0 past its end).
func (c clock) at(u int32) uint32 {
	if int(u) < len(c) {
		return c[u]
	}
	return 0
}

// grown is c extended with zeros to at least n entries.
func (c clock) grown(n int) clock {
	for len(c) < n {
		c = append(c, 0)
	}
	return c
}
