package global

import (
	"github.com/conc-dev/conc/model"
)

// Partial-order reduction by persistent sets (Godefroid's "conflicting
// transitions" construction). A set P of enabled moves at state s is
// persistent when no run from s that avoids P contains a move that
// interferes with one in P. Starting from one thread, the closure adds
//
//   - for an enabled edge of a thread in the set, every other thread that
//     may still make an interfering move (its future letters, see
//     future.go, cut at acquires of locks the set's threads hold:
//     those threads do not move outside P, so those locks stay held);
//   - for a disabled edge, the threads that can enable it (a lock's holder,
//     a thread's forker, a joined thread; with docs/spec.md §3's
//     orderings a read-held lock's readers, a message's posters, a token's
//     givers: orderings.go).
//
// Interfering means: conflicting in the conflict graph (same variable, one a
// write), or touching the same lock, or fork/join of the other thread, or
// an ordering dependence (alphabet.deps). Moves
// that do not interfere commute on the whole product state, the monitor
// included (the monitor's state is a function of the run's conflict graph:
// monitor.TestFSMStateIsTraceInvariant). docs/global.md gives the argument
// that exploring only P, with the DFS-stack cycle proviso, finds a
// violation whenever one is reachable.

// porScratch is the closure's working memory, reused between states.
type porScratch struct {
	inC  []bool
	work []int
	held []bool // per lock: held by a thread of the set
	deps []int32
}

func (ps *porScratch) init(k, locks int) {
	ps.inC, ps.held = make([]bool, k), make([]bool, locks)
}

// persistentSet returns the smallest persistent set over the seeds (each
// active thread with an enabled move).
func (s *searcher) persistentSet(c *conf) []move {
	var best, cur []move
	for t := 0; t < s.k; t++ {
		if !s.active[t] || len(s.threadMoves(c, t, cur[:0])) == 0 {
			continue
		}
		s.closure(c, t)
		cur = cur[:0]
		for u := 0; u < s.k; u++ {
			if s.por.inC[u] {
				cur = s.threadMoves(c, u, cur)
			}
		}
		if best == nil || len(cur) < len(best) {
			best = append(best[:0], cur...)
			if len(best) == 1 {
				break
			}
		}
	}
	return best
}

// closure computes, in s.por.inC, the threads of the persistent set seeded
// at thread seed. Invariant: every thread in the work list is in the set,
// and s.por.held holds the locks of every thread in the set.
func (s *searcher) closure(c *conf, seed int) {
	s.porReset(c, seed)
	ps := &s.por
	for len(ps.work) > 0 {
		y := ps.work[len(ps.work)-1]
		ps.work = ps.work[:len(ps.work)-1]
		for _, e := range s.out(c, y) {
			if !s.avail(c, y, e) {
				continue
			}
			if !s.enabled(c, y, e) {
				s.addEnablers(c, y, e)
				continue
			}
			for z := 0; z < s.k; z++ {
				if s.active[z] && !ps.inC[z] && s.interferes(c, y, e, z, true) {
					s.porAdd(c, z)
				}
			}
		}
	}
}

// porReset starts a set with thread t alone.
func (s *searcher) porReset(c *conf, t int) {
	ps := &s.por
	clear(ps.inC)
	clear(ps.held)
	ps.work = ps.work[:0]
	s.porAdd(c, t)
}

func (s *searcher) porAdd(c *conf, t int) {
	if t < 0 || !s.active[t] || s.por.inC[t] {
		return
	}
	s.por.inC[t] = true
	s.por.work = append(s.por.work, t)
	for l := range s.nLocks {
		if s.owner(c, int32(l)) == int32(t) {
			s.por.held[l] = true
		}
	}
}

// addEnablers adds the threads whose moves can enable y's disabled edge e.
// A fork of an already started thread is never enabled again: no enabler.
func (s *searcher) addEnablers(c *conf, y int, e model.Edge) {
	if !s.started(c, y) {
		s.porAdd(c, s.forkedBy[y])
		return
	}
	switch ev := e.Ev; ev.Op {
	case model.OpAcquire:
		if h := s.owner(c, ev.Target); h >= 0 {
			s.porAdd(c, int(h))
		} else { // read-held (docs/spec.md §3): the holders release it
			s.addFuture(c, y, s.fa.rd[ev.Target])
		}
	case model.OpJoin:
		u := int(ev.Target)
		if !s.started(c, u) {
			s.porAdd(c, s.forkedBy[u])
		}
		s.porAdd(c, u)
	default:
		s.addOrderingEnablers(c, y, e)
	}
}

// interferes reports whether thread z (not y) may still make a move that
// interferes with y's edge e: dynamically from z's current state with the
// set's held locks, or statically (anything z's automaton has).
func (s *searcher) interferes(c *conf, y int, e model.Edge, z int, dynamic bool) bool {
	if z == y {
		return false
	}
	has := func(x int32) bool {
		if x < 0 {
			return false
		}
		if !dynamic {
			return s.fut[z].has(s.p.Threads[z].Auto.Init, x, nil)
		}
		return s.futureHas(c, z, x)
	}
	if has(s.fa.fj[y]) {
		return true // z may fork or join y
	}
	if (e.Ev.Op == model.OpFork || e.Ev.Op == model.OpJoin) && int(e.Ev.Target) == z {
		return true
	}
	s.por.deps = s.fa.deps(e.Ev, s.por.deps[:0])
	for _, x := range s.por.deps {
		if has(x) {
			return true
		}
	}
	return false
}

// futureHas reports whether thread z, from its state in c, may reach an
// edge with future letter x without acquiring a lock the set holds (nor,
// with docs/spec.md §3's orderings, passing an event the set blocks:
// cuts.go).
func (s *searcher) futureHas(c *conf, z int, x int32) bool {
	q := s.q(c, z)
	return s.fut[z].has(q, x, s.por.held) && (!s.ord.on || !s.orderCut(c, z, q, x))
}

// localMove finds a thread whose only available edge is enabled and
// interferes with no other active thread (with partial-order reduction,
// from the threads' current states; without, anywhere in their automata):
// {that move} is persistent, so it needs no interleaving point. Thread
// prefer is tried first (the one that just moved is likely in a run of
// private moves).
func (s *searcher) localMove(c *conf, prefer int) (move, bool) {
	if prefer >= 0 {
		if e := s.isLocal(c, prefer); e >= 0 {
			return move{int32(prefer), int32(e)}, true
		}
	}
	for t := 0; t < s.k; t++ {
		if t == prefer {
			continue
		}
		if e := s.isLocal(c, t); e >= 0 {
			return move{int32(t), int32(e)}, true
		}
	}
	return move{}, false
}

// isLocal returns the edge of thread t's local move, or -1.
func (s *searcher) isLocal(c *conf, t int) int {
	if !s.active[t] || !s.started(c, t) {
		return -1
	}
	out := s.out(c, t)
	only, n := -1, 0
	for i, e := range out {
		if s.avail(c, t, e) {
			only, n = i, n+1
		}
	}
	if n != 1 || !s.enabled(c, t, out[only]) {
		return -1
	}
	if s.edges[t][s.q(c, t)][only].private {
		return only
	}
	if s.cfg.por {
		s.porReset(c, t)
	}
	for z := 0; z < s.k; z++ {
		if s.active[z] && s.interferes(c, t, out[only], z, s.cfg.por) {
			return -1
		}
	}
	return only
}

// mayConflict reports whether threads i and j can have a conflict-graph
// edge between them at all; a pair that cannot holds no cycle.
func (s *searcher) mayConflict(i, j int) bool {
	fa := s.fa
	has := func(t int, x int32) bool {
		return x >= 0 && s.fut[t].has(s.p.Threads[t].Auto.Init, x, nil)
	}
	for x := range fa.read {
		ri, wi := has(i, fa.read[x]), has(i, fa.write[x])
		rj, wj := has(j, fa.read[x]), has(j, fa.write[x])
		if wi && (rj || wj) || wj && ri {
			return true
		}
	}
	if !s.lockEdges {
		return false
	}
	for _, x := range fa.lock {
		if has(i, x) && has(j, x) {
			return true
		}
	}
	return has(i, fa.fj[j]) || has(j, fa.fj[i])
}
