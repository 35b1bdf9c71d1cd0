package chain

import (
	"encoding/binary"

	"github.com/bits-and-blooms/bitset"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/profiles"
)

// hop is one link of a chain found: thread j, entered at transaction t.
type hop struct {
	j int
	t int32
}

// chainSearch is one depth-first search over (threads used, current thread)
// from the letter a of thread i. Invariant: set holds the threads of path,
// and the table of better (best, or the chainer's dense table up to
// denseThreads threads) holds the least entry transaction seen for each
// state (set, j); a state is expanded again only when it is reached with a
// smaller one.
type chainSearch struct {
	c     *Chainer
	i     int
	set   *bitset.BitSet     // sized for every thread once: Set never grows it
	best  map[string]int32   // beyond 64 threads
	small map[smallKey]int32 // 17 to 64 threads
	key   []byte
	f     []int32                   // F_a: least entry per final thread
	goal  func(j int, t int32) bool // nil: explore everything (for F)
	path  []hop
}

func (c *Chainer) newSearch(i int) *chainSearch {
	f := make([]int32, c.k)
	for j := range f {
		f[j] = Inf
	}
	s := &chainSearch{c: c, i: i, set: bitset.New(uint(c.k)), f: f}
	if c.k <= denseThreads {
		if c.dense == nil {
			n := (1 << c.k) * c.k
			c.dense = &denseBest{gen: make([]uint32, n), best: make([]int32, n)}
		}
		if c.dense.cur++; c.dense.cur == 0 { // wrapped: forget every generation
			clear(c.dense.gen)
			c.dense.cur = 1
		}
	} else if c.k <= 64 {
		s.small = map[smallKey]int32{}
	} else {
		s.best = map[string]int32{}
	}
	return s
}

// run starts the chain at every thread that letter a of thread i can enter.
func (s *chainSearch) run(a profiles.Letter) bool {
	for j := 0; j < s.c.k; j++ {
		if j == s.i {
			continue
		}
		if t := s.c.enter(j, a); t != Inf && s.enterThread(j, t) {
			return true
		}
		if s.c.Stop != "" {
			return false
		}
	}
	return false
}

func (s *chainSearch) enterThread(j int, t int32) bool {
	s.set.Set(uint(j))
	s.path = append(s.path, hop{j, t})
	if s.dfs(j, t) {
		return true
	}
	s.path = s.path[:len(s.path)-1]
	s.set.Clear(uint(j))
	return false
}

// dfs explores from thread j entered at transaction t, the len(s.path)-th
// thread of the chain. A state (set, j) is always at depth |set|, so the
// least-t table stays exact under the chainer's depth bound: the bounded
// search finds F over exactly the chains of at most depth threads.
func (s *chainSearch) dfs(j int, t int32) bool {
	if !s.visit(j, t) {
		return false
	}
	s.f[j] = min(s.f[j], t)
	if s.goal != nil && s.goal(j, t) {
		return true
	}
	if s.c.Depth > 0 && len(s.path) >= s.c.Depth {
		s.c.cut = true // a longer chain may exist: the next pass looks (deepen.go)
		return false
	}
	for k := 0; k < s.c.k; k++ {
		if k == s.i || s.set.Test(uint(k)) {
			continue
		}
		if t2 := s.c.step(j, k).at(t); t2 != Inf && s.enterThread(k, t2) {
			return true
		}
		if s.c.Stop != "" {
			return false
		}
	}
	return false
}

// StateLimitReached is the chain search's reason for stopping at --max-states
// (predict/predict.go names the default budget instead when it applied).
const StateLimitReached = "state limit reached (--max-states)"

// visit records state (set, j) at t and reports whether it is worth
// expanding; it also enforces --max-states, the deadline and the memory
// budget.
func (s *chainSearch) visit(j int, t int32) bool {
	if !s.better(j, t) {
		return false
	}
	return s.c.Count()
}

// Count counts one chain state, of the search or of reachShort, and
// reports whether the search may go on: it enforces --max-states, the
// deadline and the memory budget.
func (c *Chainer) Count() bool {
	c.States++
	if c.Limit > 0 && c.States > c.Limit {
		c.halt(engines.StateBudget, StateLimitReached)
		return false
	}
	if c.States&1023 == 0 && c.Ctx.Err() != nil {
		c.halt(Ended(c.Ctx))
		return false
	}
	if c.States&1023 == 0 && c.Mem != nil && c.Mem.Over() {
		c.halt(engines.MemoryBudget, c.Mem.Reached(c.States))
		return false
	}
	return true
}

// better records t as the best entry of state (set, j) if it beats the
// one recorded. Up to denseThreads threads the states index a table shared
// by every search (stamped with the search's generation, so nothing is
// cleared between searches); up to 64, a map keyed by the set's word and j
// (a string key cost twice as much); beyond, a map keyed by the set's words.
func (s *chainSearch) better(j int, t int32) bool {
	if d := s.c.dense; d != nil {
		x := int(s.set.Words()[0])*s.c.k + j
		if d.gen[x] == d.cur && d.best[x] <= t {
			return false
		}
		d.gen[x], d.best[x] = d.cur, t
		return true
	}
	if s.small != nil { // up to 64 threads: one word of set, no string key
		x := smallKey{s.set.Words()[0], int32(j)}
		if old, ok := s.small[x]; ok && old <= t {
			return false
		}
		s.small[x] = t
		return true
	}
	s.key = s.key[:0]
	for _, w := range s.set.Words() {
		s.key = binary.LittleEndian.AppendUint64(s.key, w)
	}
	s.key = binary.AppendUvarint(s.key, uint64(j))
	if old, ok := s.best[string(s.key)]; ok && old <= t {
		return false
	}
	s.best[string(s.key)] = t
	return true
}

// denseThreads bounds the threads for which the chain states are a table
// (2^k · k entries of 8 bytes: 8 MiB at 16 threads).
const denseThreads = 16

// smallKey is a state (set, j) when the set is one word.
type smallKey struct {
	set uint64
	j   int32
}

// denseBest is the table of better.
type denseBest struct {
	gen  []uint32
	best []int32
	cur  uint32
}

// Reach is F_a for letter a of thread i: per thread j, the least transaction
// at which a chain of distinct threads other than i, started by a conflict
// with a, can enter j (inf if none). Letters with the same entry vector share
// the answer.
func (c *Chainer) Reach(i int, a profiles.Letter) []int32 {
	key := binary.AppendUvarint(nil, uint64(i))
	none := true
	for j := 0; j < c.k; j++ {
		t := int32(Inf)
		if j != i {
			t = c.enter(j, a)
		}
		none = none && t == Inf
		key = binary.AppendUvarint(key, uint64(t))
	}
	if f, ok := c.fmemo[string(key)]; ok {
		return f
	}
	var f []int32
	switch {
	case none:
	case c.Depth == shortDepth:
		f, _ = c.reachShort(i, a)
	default:
		s := c.newSearch(i)
		s.run(a)
		f = s.f
	}
	if c.Stop == "" {
		c.fmemo[string(key)] = f
	}
	return f
}

// ChainTo finds the chain from a of thread i that closes on b.
func (c *Chainer) ChainTo(i int, a, b profiles.Letter) ([]hop, bool) {
	if c.Depth == shortDepth {
		return c.shortChain(i, a, b)
	}
	s := c.newSearch(i)
	s.goal = func(j int, t int32) bool { return t <= c.Close(j, b) }
	if !s.run(a) {
		return nil, false
	}
	return s.path, true
}
