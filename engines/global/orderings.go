package global

import (
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// docs/spec.md §3's orderings in the product: a program that has them (a
// trace's projection with read locks, messages or tokens; never a .conc
// program) carries in every state, after the started words, per lock its
// read holders, per message the posts made, and per token the tokens given
// and not yet taken, as brute does (engines/brute/orderings.go). A write
// acquire needs no read holder, a read acquire no write holder, a wait
// every one of the program's posts of its message, a take a token. Only
// the counts some move reads get a word (a lock both read- and
// write-acquired, a message both posted and waited for, a token taken),
// and a program without orderings has none: its states and keys carry
// nothing more.

// orderLayout is where the orderings' words lie in a conf, and what the
// waits need.
type orderLayout struct {
	on      bool
	off     int      // where the words start
	words   int      // how many there are
	readers []int32  // per lock: the word of its read holder count, or -1
	posted  []int32  // per message: the word of its posts made, or -1
	tokens  []int32  // per token: the word of its tokens left, or -1
	posts   []uint64 // per message: the program's posts of it
	// inKey: keys carry the words. When every thread is a straight line,
	// the threads' positions determine the counts, and keys leave them out.
	inKey bool
}

// newOrderLayout places the orderings' words at off (none when p has no
// ordering event) and counts p's posts of each message: the orderings are
// a trace's, whose projections are straight lines, every edge taken once
// by a run to its end (brute counts them so too).
func newOrderLayout(p *model.Program, off int) orderLayout {
	if !p.HasOrderings() {
		return orderLayout{}
	}
	o := orderLayout{on: true, off: off, inKey: p.Class() != model.StraightLine}
	var used [model.OpTake + 1][]bool // per op: per target, some event has it
	for op := range used {
		used[op] = make([]bool, max(len(p.Locks), len(p.Msgs)))
	}
	for _, th := range p.Threads {
		for _, out := range th.Auto.Out {
			for _, e := range out {
				if e.Ev.Op.IsExtension() || e.Ev.Op == model.OpAcquire {
					used[e.Ev.Op][e.Ev.Target] = true
				}
			}
		}
	}
	word := func(on bool) int32 {
		if !on {
			return -1
		}
		o.words++
		return int32(off + o.words - 1)
	}
	for l := range p.Locks {
		read := used[model.OpReadAcquire][l] || used[model.OpReadRelease][l]
		o.readers = append(o.readers, word(read && used[model.OpAcquire][l]))
	}
	for m := range p.Msgs {
		o.posted = append(o.posted, word(used[model.OpPost][m] && used[model.OpWait][m]))
		o.tokens = append(o.tokens, word(used[model.OpTake][m]))
	}
	for _, n := range postsOf(p) {
		o.posts = append(o.posts, uint64(n))
	}
	return o
}

// postsOf counts each message's posts in p's automata.
func postsOf(p *model.Program) []int {
	posts := make([]int, len(p.Msgs))
	for _, th := range p.Threads {
		for _, out := range th.Auto.Out {
			for _, e := range out {
				if e.Ev.Op == model.OpPost {
					posts[e.Ev.Target]++
				}
			}
		}
	}
	return posts
}

// supports accepts every valid program, with the orderings when they can
// be honoured: not under --lock-edges (their conflicts are not modelled,
// as in brute), and only in loop-free programs, where the counts are
// bounded and the posts of a message are the program's (a trace's
// projections are straight lines).
func supports(p *model.Program, opts engines.Options) error {
	if err := engines.ValidOrderedProgram(p); err != nil {
		return err
	}
	if opts.IgnoreSync || !p.HasOrderings() {
		return nil
	}
	switch {
	case opts.LockEdges:
		return fmt.Errorf("global does not model the orderings' conflicts under --lock-edges (docs/spec.md §3)")
	case !p.LoopFree():
		return fmt.Errorf("global honours the orderings (docs/spec.md §3) in loop-free programs only")
	}
	return nil
}

// readFree reports that no thread read-holds lock l (a write acquire
// needs it).
func (s *searcher) readFree(c *conf, l int32) bool {
	return !s.ord.on || s.ord.readers[l] < 0 || c.w[s.ord.readers[l]] == 0
}

// tokensLeft is how many tokens of tok are given and not yet taken.
func (s *searcher) tokensLeft(c *conf, tok int32) uint64 {
	if w := s.ord.tokens[tok]; w >= 0 {
		return c.w[w]
	}
	return 0
}

// orderingAllows reports whether a wait or a take may happen now: a wait
// after every post of its message, a take of a token given and not yet
// taken.
func (s *searcher) orderingAllows(c *conf, ev model.Event) bool {
	switch x := ev.Target; ev.Op {
	case model.OpWait:
		w := s.ord.posted[x]
		return w < 0 && s.ord.posts[x] == 0 || w >= 0 && c.w[w] == s.ord.posts[x]
	case model.OpTake:
		return s.tokensLeft(c, x) > 0
	}
	return true
}

// applyOrdering makes an ordering event's change to c's counts (those
// that have a word). (A read release below zero, which no trace has,
// wraps, and then blocks write acquires as brute's negative count does.)
func (s *searcher) applyOrdering(c *conf, ev model.Event) {
	var w int32 = -1
	d := uint64(1)
	switch x := ev.Target; ev.Op {
	case model.OpReadAcquire:
		w = s.ord.readers[x]
	case model.OpReadRelease:
		w, d = s.ord.readers[x], ^uint64(0) // -1
	case model.OpPost:
		w = s.ord.posted[x]
	case model.OpGive:
		w = s.ord.tokens[x]
	case model.OpTake:
		w, d = s.ord.tokens[x], ^uint64(0)
	}
	if w >= 0 {
		c.w[w] += d
	}
}

// addOrderingEnablers adds the threads whose moves can enable y's
// disabled ordering edge e: a read acquire waits for the write holder, a
// wait for the threads that may still post its message, a take for those
// that may still give a token. (A write acquire that read holders block
// is addEnablers'.)
func (s *searcher) addOrderingEnablers(c *conf, y int, e model.Edge) {
	switch fa, x := s.fa, e.Ev.Target; e.Ev.Op {
	case model.OpReadAcquire:
		s.porAdd(c, int(s.owner(c, x)))
	case model.OpWait:
		s.addFuture(c, y, fa.post[x])
	case model.OpTake:
		s.addFuture(c, y, fa.give[x])
	}
}

// addFuture adds every active thread but y that may still make a move
// with future letter x (from its state, cut at the locks the set holds).
func (s *searcher) addFuture(c *conf, y int, x int32) {
	if x < 0 {
		return
	}
	for z := 0; z < s.k; z++ {
		if z != y && s.active[z] && !s.por.inC[z] && s.futureHas(c, z, x) {
			s.porAdd(c, z)
		}
	}
}
