package chain

import "github.com/conc-dev/conc/profiles"

// Chains of one or two threads need no search over sets of threads, and
// their F (the deepening's first pass, deepen.go) costs what the letters
// involved cost, not threads²:
//
//	F¹[j] = m_j(a)                      (j ≠ i)
//	F²[k] = min(F¹[k], min{m_k(e) : some j ∉ {i, k} has F¹[j] <= last_j(e)})
//
// The second line is the chain i → j → k left from j by e: distinctness
// is only j ≠ k, so it is enough to know, per exit letter e, two threads
// that can leave by it. Both are read off an index of each letter's users
// (the threads that use it, with its first transaction there), so a trace
// of 16,000 threads writing one variable costs 16,000 steps, where the
// search over (set, thread) states took 16,000².

// shortDepth is the bound of the chains reachShort covers.
const shortDepth = 2

// userOf is a thread that uses a letter, and the first transaction in
// which it does.
type userOf struct {
	j     int32
	first int32
}

// shortScratch is reachShort's reusable state: per letter, up to two
// threads that can leave by it (-1: none), and the letters set.
type shortScratch struct {
	exit    [][2]int32
	touched []profiles.Letter
	via     []shortVia // per thread: how its F² entry was reached
}

// shortVia is the middle thread j and exit letter e of a two-thread chain
// into a thread (j = -1: entered straight from a).
type shortVia struct {
	j int32
	e profiles.Letter
}

// usersOf is the index of each letter's users, built on first use.
func (c *Chainer) usersOf(l profiles.Letter) []userOf {
	if c.letterUsers == nil {
		n := 0
		for _, th := range c.th {
			n = max(n, len(th.Span))
		}
		c.letterUsers = make([][]userOf, n)
		for j, th := range c.th {
			for l, sp := range th.Span {
				if sp.First != 0 {
					c.letterUsers[l] = append(c.letterUsers[l], userOf{int32(j), sp.First})
				}
			}
		}
	}
	if l < 0 || int(l) >= len(c.letterUsers) {
		return nil
	}
	return c.letterUsers[l]
}

// reachShort is F_a for letter a of thread i over chains of at most two
// threads (shortDepth), and, per thread, how its entry was reached; nil
// when the budget stops it (c.Stop). A thread entered, or entered earlier,
// is a chain state.
func (c *Chainer) reachShort(i int, a profiles.Letter) ([]int32, []shortVia) {
	f := make([]int32, c.k)
	for j := range f {
		f[j] = Inf
	}
	var from []int32 // the threads F¹ enters
	for _, e := range Conflicting(a) {
		for _, u := range c.usersOf(e) {
			if int(u.j) == i {
				continue
			}
			if f[u.j] == Inf {
				if !c.Count() {
					return nil, nil
				}
				from = append(from, u.j)
			}
			f[u.j] = min(f[u.j], u.first)
		}
	}
	c.cut = c.cut || len(from) > 0 // a longer chain may go on from there
	sc := c.scratch()
	for k := range sc.via {
		sc.via[k] = shortVia{-1, -1}
	}
	c.exits(f, from)
second:
	for _, e := range sc.touched {
		for _, in := range Conflicting(e) {
			for _, u := range c.usersOf(in) {
				k := u.j
				if int(k) == i || u.first >= f[k] {
					continue
				}
				if j := sc.other(e, k); j >= 0 {
					if !c.Count() {
						break second
					}
					f[k], sc.via[k] = u.first, shortVia{j, e}
				}
			}
		}
	}
	for _, e := range sc.touched {
		sc.exit[e] = [2]int32{-1, -1}
	}
	sc.touched = sc.touched[:0]
	if c.Stop != "" {
		return nil, nil
	}
	return f, sc.via
}

// exits records, per letter, up to two threads of from that can be left
// by it once entered at F¹ (last_j(e) >= F¹[j]; byLast lists them first).
func (c *Chainer) exits(f []int32, from []int32) {
	sc := c.short
	for _, j := range from {
		span := c.th[j].Span
		for _, l := range c.byLast(int(j)) {
			if span[l].Last < f[j] {
				break
			}
			x := &sc.exit[l]
			switch {
			case x[0] < 0:
				x[0] = j
				sc.touched = append(sc.touched, profiles.Letter(l))
			case x[1] < 0:
				x[1] = j
			}
		}
	}
}

// other is a thread other than k that can be left by letter e, or -1.
func (sc *shortScratch) other(e profiles.Letter, k int32) int32 {
	x := sc.exit[e]
	if x[0] != k {
		return x[0]
	}
	return x[1] // distinct from x[0], or -1
}

// scratch is the chainer's shortScratch, sized on first use.
func (c *Chainer) scratch() *shortScratch {
	if c.short == nil {
		c.usersOf(0)
		sc := &shortScratch{exit: make([][2]int32, len(c.letterUsers)), via: make([]shortVia, c.k)}
		for l := range sc.exit {
			sc.exit[l] = [2]int32{-1, -1}
		}
		c.short = sc
	}
	return c.short
}

// shortChain is the chain of at most two threads from a of thread i that
// closes on b, read off reachShort's record.
func (c *Chainer) shortChain(i int, a, b profiles.Letter) ([]hop, bool) {
	f, via := c.reachShort(i, a)
	for k, t := range f {
		if t == Inf || t > c.Close(k, b) {
			continue
		}
		if v := via[k]; v.j >= 0 {
			return []hop{{int(v.j), c.enter(int(v.j), a)}, {k, t}}, true
		}
		return []hop{{k, t}}, true
	}
	return nil, false
}
