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
// every one of the program's posts of its message, a take a token. A
// program without them has no such words: its states and keys are as
// before.

// orderLayout is where the orderings' words lie in a conf, and what the
// waits need.
type orderLayout struct {
	on      bool
	readers int      // offset of the per-lock read holder counts
	posted  int      // offset of the per-message posts made
	tokens  int      // offset of the per-token tokens available
	posts   []uint64 // per message: the program's posts of it
	words   int      // how many words the orderings take
}

// newOrderLayout places the orderings' words at off (none when p has no
// ordering event) and counts p's posts of each message: the orderings are
// a trace's, whose projections are straight lines, every edge taken once
// by a run to its end (brute counts them so too).
func newOrderLayout(p *model.Program, off int) orderLayout {
	if !p.HasOrderings() {
		return orderLayout{}
	}
	l, m := len(p.Locks), len(p.Msgs)
	o := orderLayout{on: true, readers: off, posted: off + l, tokens: off + l + m, words: l + 2*m}
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
	return !s.ord.on || c.w[s.ord.readers+int(l)] == 0
}

// orderingAllows reports whether a wait or a take may happen now: a wait
// after every post of its message, a take of a token given and not yet
// taken.
func (s *searcher) orderingAllows(c *conf, ev model.Event) bool {
	switch ev.Op {
	case model.OpWait:
		return c.w[s.ord.posted+int(ev.Target)] == s.ord.posts[ev.Target]
	case model.OpTake:
		return c.w[s.ord.tokens+int(ev.Target)] > 0
	}
	return true
}

// applyOrdering makes an ordering event's change to c's counts. (A read
// release below zero, which no trace has, wraps, and then blocks write
// acquires as brute's negative count does.)
func (s *searcher) applyOrdering(c *conf, ev model.Event) {
	switch x := int(ev.Target); ev.Op {
	case model.OpReadAcquire:
		c.w[s.ord.readers+x]++
	case model.OpReadRelease:
		c.w[s.ord.readers+x]--
	case model.OpPost:
		c.w[s.ord.posted+x]++
	case model.OpGive:
		c.w[s.ord.tokens+x]++
	case model.OpTake:
		c.w[s.ord.tokens+x]--
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
