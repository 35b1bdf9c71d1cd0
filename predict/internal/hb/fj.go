package hb

import "maps"

// FJ is the order that forks and joins impose on every run (locks play
// no part: their order can change from run to run). Per thread and epoch
// (its forks and joins so far) it says how many edges of each other
// thread precede, in every run, the thread's events of that epoch: a
// thread's first events follow its forker's fork and everything before
// it, and a thread's events after a join follow the joined thread's end
// and everything before that. The finders use it to leave out patterns no
// run can have.
type FJ struct {
	cur    []map[int32]int64   // per thread: its clock now (never changed once stored)
	epochs [][]map[int32]int64 // per thread: its clock in each epoch
}

// NewFJ is the order of k threads before their first event.
func NewFJ(k int) *FJ {
	c := &FJ{cur: make([]map[int32]int64, k), epochs: make([][]map[int32]int64, k)}
	for t := range c.epochs {
		c.epochs[t] = []map[int32]int64{nil}
	}
	return c
}

// Fork: thread t forks u at its edge q.
func (c *FJ) Fork(t, u int32, q int64) {
	m := maps.Clone(c.cur[t])
	if m == nil {
		m = map[int32]int64{}
	}
	m[t] = max(m[t], q+1)
	c.cur[u], c.epochs[u][0] = m, m
	c.epochs[t] = append(c.epochs[t], c.cur[t])
}

// Join: thread t joins u, which has taken n edges.
func (c *FJ) Join(t, u int32, n int64) {
	m := maps.Clone(c.cur[t])
	if m == nil {
		m = map[int32]int64{}
	}
	for v, x := range c.cur[u] {
		m[v] = max(m[v], x)
	}
	m[u] = max(m[u], n)
	c.cur[t] = m
	c.epochs[t] = append(c.epochs[t], m)
}

// Before is how many edges of thread u precede thread t's events of epoch
// e in every run.
func (c *FJ) Before(t, e, u int32) int64 {
	return c.epochs[t][e][u]
}

// Epochs is how many epochs thread t has had so far (its forks and joins
// plus one).
func (c *FJ) Epochs(t int32) int32 { return int32(len(c.epochs[t])) }

// Each calls f with every thread u and the edges of u that precede thread
// t's events of epoch e in every run (only those with some).
func (c *FJ) Each(t, e int32, f func(u int32, n int64)) {
	for u, n := range c.epochs[t][e] {
		f(u, n)
	}
}
