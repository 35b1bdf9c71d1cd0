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
// projections), from their positions; elsewhere the futures are not cut
// by them, which only over-approximates.

// orderThread is what a thread may do that cuts other threads' futures.
type orderThread struct {
	posts []int32 // the messages it posts that another thread waits for
	reads []int32 // the shared locks it read-acquires
}

// orderThreads lists every thread's posts and read acquires that matter
// to others (nil without orderings).
func (s *searcher) orderThreads() []orderThread {
	if !s.ord.on {
		return nil
	}
	out := make([]orderThread, s.k)
	for t, th := range s.p.Threads {
		seen := map[model.Event]bool{}
		for _, es := range th.Auto.Out {
			for _, e := range es {
				ev, x := model.Event{Op: e.Ev.Op, Target: e.Ev.Target}, e.Ev.Target
				switch {
				case seen[ev]:
				case ev.Op == model.OpPost && s.fa.post[x] >= 0 && s.fa.wait[x] >= 0:
					out[t].posts = append(out[t].posts, x)
				case ev.Op == model.OpReadAcquire && s.fa.lock[x] >= 0:
					out[t].reads = append(out[t].reads, x)
				}
				seen[ev] = true
			}
		}
	}
	return out
}

// orderCuts are the ordering events the set's threads block.
type orderCuts struct {
	waits   []int32 // messages a thread of the set has still to post
	pending []bool  // per message: in waits
	readers []int32 // locks a thread of the set read-holds
	rheld   []bool  // per lock: in readers
}

func (oc *orderCuts) init(locks, msgs int) {
	oc.pending, oc.rheld = make([]bool, msgs), make([]bool, locks)
}

func (oc *orderCuts) reset() {
	for _, m := range oc.waits {
		oc.pending[m] = false
	}
	for _, l := range oc.readers {
		oc.rheld[l] = false
	}
	oc.waits, oc.readers = oc.waits[:0], oc.readers[:0]
}

// addOrderCuts records what thread t, joining the set, blocks: the posts
// it has still to make, the locks it read-holds (straight lines only).
func (s *searcher) addOrderCuts(c *conf, t int) {
	lf, ok := s.fut[t].(*lineFut)
	if !ok {
		return
	}
	oc, q := &s.por.oc, s.q(c, t)
	for _, m := range s.ordT[t].posts {
		if !oc.pending[m] && lf.has(q, s.fa.post[m], nil) {
			oc.pending[m] = true
			oc.waits = append(oc.waits, m)
		}
	}
	for _, l := range s.ordT[t].reads {
		if !oc.rheld[l] && lf.ord.readHolds(lf.pos[q], l) {
			oc.rheld[l] = true
			oc.readers = append(oc.readers, l)
		}
	}
}

// orderCut reports whether thread z, from state q, cannot reach an edge
// with letter x before an event the set blocks.
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
	if lf.ord.blocked(p, i, &s.por.oc) {
		return true
	}
	tok, ok := lf.ord.nextTake(p, i)
	return ok && s.tokenBlocked(c, tok)
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
	wait       [][]int32 // per message
	wacq       [][]int32 // per lock: write acquires
	racq, rrel [][]int32 // per lock
	take       [][]int32 // per token
	takes      []int32   // every take's position
	takeTok    []int32   // and its token
}

func newLineOrderings(fa *alphabet) *lineOrderings {
	l, m := len(fa.lock), len(fa.post)
	return &lineOrderings{wait: make([][]int32, m), take: make([][]int32, m),
		wacq: make([][]int32, l), racq: make([][]int32, l), rrel: make([][]int32, l)}
}

// note records the event at position i.
func (lo *lineOrderings) note(ev model.Event, i int32) {
	x := ev.Target
	switch ev.Op {
	case model.OpWait:
		lo.wait[x] = append(lo.wait[x], i)
	case model.OpAcquire:
		lo.wacq[x] = append(lo.wacq[x], i)
	case model.OpReadAcquire:
		lo.racq[x] = append(lo.racq[x], i)
	case model.OpReadRelease:
		lo.rrel[x] = append(lo.rrel[x], i)
	case model.OpTake:
		lo.take[x] = append(lo.take[x], i)
		lo.takes, lo.takeTok = append(lo.takes, i), append(lo.takeTok, x)
	}
}

// readHolds reports whether the thread at position p read-holds lock l.
func (lo *lineOrderings) readHolds(p, l int32) bool {
	return countBelow(lo.racq[l], p) > countBelow(lo.rrel[l], p)
}

// blocked reports whether, from position p, a wait for a pending message
// or a write acquire of a read-held lock comes at or before position i.
func (lo *lineOrderings) blocked(p, i int32, oc *orderCuts) bool {
	for _, m := range oc.waits {
		if w, ok := firstAtLeast(lo.wait[m], p); ok && w <= i {
			return true
		}
	}
	for _, l := range oc.readers {
		if a, ok := firstAtLeast(lo.wacq[l], p); ok && a <= i {
			return true
		}
	}
	return false
}

// nextTake is the token of the first take at or after p, if it comes at
// or before i.
func (lo *lineOrderings) nextTake(p, i int32) (int32, bool) {
	k := sort.Search(len(lo.takes), func(k int) bool { return lo.takes[k] >= p })
	if k == len(lo.takes) || lo.takes[k] > i {
		return 0, false
	}
	return lo.takeTok[k], true
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
