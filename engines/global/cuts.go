package global

import (
	"sort"

	"github.com/conc-dev/conc/model"
)

// Futures cut at docs/spec.md §3's orderings. The persistent set's
// threads C do not move along a run that avoids the set's moves
// (docs/global.md), so what they block stays blocked, and another
// thread's future may be cut there, as it is at an acquire of a lock C
// write-holds (future.go):
//
//   - a wait for a message that a thread of C has still to post (a post
//     reachable from its state: the orderings are in loop-free programs
//     only, whose edges a run takes once): the wait needs every post;
//   - a write acquire of a lock that a thread of C read-holds;
//   - a take of a token none is left of, when no thread outside C may
//     give it before its own next take of it: the first give outside C
//     would come before any take of that token (none is left), so before
//     its thread's next take, which no thread outside C has.
//
// The cuts are read only for straight-line threads (a trace's
// projections), from their positions, and only at a thread's next few
// waits, write acquires and takes; elsewhere the futures are not cut by
// them, which only over-approximates. What C blocks only grows as C
// grows, so a future read earlier in the closure, with fewer cuts, is a
// superset.

// orderCut reports whether thread z, from state q, cannot reach an edge
// with letter x: one of its next waits, write acquires or takes (the first
// cutLook of each kind) comes first and is one the set blocks.
func (s *searcher) orderCut(c *conf, z int, q, x int32) bool {
	lf, ok := s.fut[z].(*lineFut)
	if !ok || lf.pos[q] < 0 {
		return false
	}
	p := lf.pos[q]
	i, ok := firstAtLeast(lf.occ[x], p)
	if !ok {
		return true
	}
	lo := lf.ord
	return s.anyBlocked(c, &lo.waits, model.OpWait, p, i) || s.anyBlocked(c, &lo.wacqs, model.OpAcquire, p, i) ||
		s.anyBlocked(c, &lo.takes, model.OpTake, p, i)
}

// cutLook is how many of a thread's next waits (write acquires, takes)
// a cut looks at: a bound on the work a query costs.
const cutLook = 4

// anyBlocked reports whether the set blocks one of the first cutLook
// events of ps (of op) at or after position p that come at or before i.
func (s *searcher) anyBlocked(c *conf, ps *positioned, op model.Op, p, i int32) bool {
	k := sort.Search(len(ps.at), func(k int) bool { return ps.at[k] >= p })
	for end := min(k+cutLook, len(ps.at)); k < end && ps.at[k] <= i; k++ {
		x := ps.target[k]
		switch {
		case op == model.OpWait && s.postPending(c, x),
			op == model.OpAcquire && s.readHeld(c, x),
			op == model.OpTake && s.tokenBlocked(c, x):
			return true
		}
	}
	return false
}

// postPending reports whether a thread of the set, a straight line, has
// still to post message m (a post reachable from its state: the edges of
// a loop-free program are taken once).
func (s *searcher) postPending(c *conf, m int32) bool {
	x := s.fa.post[m]
	if x < 0 {
		return false
	}
	for t := range s.k {
		if lf, ok := s.fut[t].(*lineFut); ok && s.por.inC[t] && lf.has(s.q(c, t), x, nil) {
			return true
		}
	}
	return false
}

// readHeld reports whether a thread of the set, a straight line,
// read-holds lock l.
func (s *searcher) readHeld(c *conf, l int32) bool {
	for t := range s.k {
		if lf, ok := s.fut[t].(*lineFut); ok && s.por.inC[t] && lf.pos[s.q(c, t)] >= 0 &&
			lf.ord.readHolds(lf.pos[s.q(c, t)], l) {
			return true
		}
	}
	return false
}

// tokenBlocked reports that no token of tok is left and no thread
// outside the set may give one before its own next take of it.
func (s *searcher) tokenBlocked(c *conf, tok int32) bool {
	g := s.fa.give[tok]
	if s.tokensLeft(c, tok) != 0 || g < 0 {
		return false
	}
	for w := 0; w < s.k; w++ {
		if !s.active[w] || s.por.inC[w] {
			continue
		}
		lf, ok := s.fut[w].(*lineFut)
		if !ok || lf.pos[s.q(c, w)] < 0 || lf.ord.giveBeforeTake(lf.pos[s.q(c, w)], tok, lf.occ[g]) {
			return false
		}
	}
	return true
}

// lineOrderings are the positions of a straight-line thread's ordering
// events (and write acquires), ascending, for the cuts.
type lineOrderings struct {
	waits, wacqs, takes positioned // every wait, write acquire, take, with its target
	racq, rrel          [][]int32  // per lock
	take                [][]int32  // per token
}

// positioned are events' positions, ascending, and their targets.
type positioned struct{ at, target []int32 }

func newLineOrderings(fa *alphabet) *lineOrderings {
	l, m := len(fa.lock), len(fa.post)
	return &lineOrderings{take: make([][]int32, m), racq: make([][]int32, l), rrel: make([][]int32, l)}
}

// note records the event at position i.
func (lo *lineOrderings) note(ev model.Event, i int32) {
	x := ev.Target
	switch ev.Op {
	case model.OpWait:
		lo.waits.add(i, x)
	case model.OpAcquire:
		lo.wacqs.add(i, x)
	case model.OpReadAcquire:
		lo.racq[x] = append(lo.racq[x], i)
	case model.OpReadRelease:
		lo.rrel[x] = append(lo.rrel[x], i)
	case model.OpTake:
		lo.take[x] = append(lo.take[x], i)
		lo.takes.add(i, x)
	}
}

func (ps *positioned) add(i, x int32) {
	ps.at, ps.target = append(ps.at, i), append(ps.target, x)
}

// readHolds reports whether the thread at position p read-holds lock l.
func (lo *lineOrderings) readHolds(p, l int32) bool {
	return countBelow(lo.racq[l], p) > countBelow(lo.rrel[l], p)
}

// giveBeforeTake reports whether, from position p, a give of tok (gives:
// the positions of its letter) comes before the next take of tok.
func (lo *lineOrderings) giveBeforeTake(p, tok int32, gives []int32) bool {
	g, ok := firstAtLeast(gives, p)
	if !ok {
		return false
	}
	t, ok := firstAtLeast(lo.take[tok], p)
	return !ok || g < t
}

// countBelow is how many elements of ascending xs are below p.
func countBelow(xs []int32, p int32) int {
	return sort.Search(len(xs), func(i int) bool { return xs[i] >= p })
}
