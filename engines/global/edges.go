package global

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/fsm"
)

// What the search knows about each thread's edges and states, computed
// once before it starts: the monitor letters and the interference facts of
// every edge, the runs of silent moves, and where a thread's transaction
// can no longer meet another's letters (its monitor reach is then dead).

// edgeFacts is what the search needs to know about one edge of one thread,
// computed once.
type edgeFacts struct {
	letters *fsm.Letters
	// noop: the monitor's state cannot change. A compact-mode access of a
	// private variable (always inside a transaction, by Automaton's
	// invariant) adds only thread(t), which the transaction has, and
	// conflicts only with thread(t) and fork(t), whose edges into the
	// transaction exist since its begin (a fork precedes the forked
	// thread's events).
	noop bool
	// private: interferes with no other thread, whatever it does (no shared
	// letter; nobody forks or joins t; not a fork or join itself).
	private bool
}

// threadEdges precomputes the facts of every edge of thread t, sharing one
// value among edges with the same event.
func (s *searcher) threadEdges(t int, a *model.Automaton) [][]*edgeFacts {
	al := s.fsm.Alphabet()
	cache := map[[2]int32]*edgeFacts{}
	out := make([][]*edgeFacts, a.NumStates())
	for q, es := range a.Out {
		out[q] = make([]*edgeFacts, len(es))
		for i, e := range es {
			key := [2]int32{int32(e.Ev.Op), e.Ev.Target}
			if cache[key] == nil {
				l := al.Of(t, e.Ev)
				g := &edgeFacts{letters: &l}
				deps := s.fa.deps(e.Ev, nil)
				g.private = s.fa.fj[t] < 0 && e.Ev.Op != model.OpFork && e.Ev.Op != model.OpJoin
				for _, x := range deps {
					g.private = g.private && x < 0
				}
				g.noop = l.Kind == fsm.KindNone ||
					s.cfg.compact && e.Ev.Op.IsAccess() && len(deps) > 0 && g.private
				cache[key] = g
			}
			out[q][i] = cache[key]
		}
	}
	return out
}

// silentRun is a run of silent moves: n moves from a state, each along the only
// edge of its state, each private (it interferes with no other thread) and
// leaving the monitor unchanged, ending in state to.
type silentRun struct{ n, to int32 }

// silentRuns computes thread t's runs of silent moves, in post order so
// that straight-line runs are maximal (on a cycle a run stops short, which
// only costs a step).
func (s *searcher) silentRuns(t int) []silentRun {
	a := s.p.Threads[t].Auto
	runs := make([]silentRun, a.NumStates())
	for _, q := range a.PostOrder(true) {
		out := a.Out[q]
		if len(out) != 1 || out[0].Stack != model.StackNone {
			continue
		}
		if g := s.edges[t][q][0]; !g.private || !g.noop || out[0].Ev.Op.IsSync() {
			continue
		}
		next := runs[out[0].To]
		runs[q] = silentRun{n: 1 + next.n, to: out[0].To}
		if next.n > 0 {
			runs[q].to = next.to
		}
	}
	return runs
}

// deadRows computes, per state of thread t, whether t's current transaction
// can make no further event with a letter another thread could conflict
// with before it ends (a shared access; with lock edges a lock, fork or
// join event): the least fixpoint of live(q) = some edge of q has such a
// letter, or is no begin or end and leads to a live state. In a dead state
// the monitor may forget t's reach (fsm.FSM.ForgetReach).
func (s *searcher) deadRows(t int) []bool {
	a := s.p.Threads[t].Auto
	live := make([]bool, a.NumStates())
	order := a.PostOrder(true)
	for changed := true; changed; {
		changed = false
		for _, q := range order {
			if live[q] {
				continue
			}
			for i, e := range a.Out[q] {
				op := e.Ev.Op
				matters := op.IsAccess() && !s.edges[t][q][i].private || op.IsSync() && s.lockEdges
				if matters || op != model.OpBegin && op != model.OpEnd && live[e.To] {
					live[q], changed = true, true
					break
				}
			}
		}
	}
	for q := range live {
		live[q] = !live[q]
	}
	return live
}

// forgetDead clears the monitor reach of every thread in a dead state.
func (s *searcher) forgetDead(c *conf) {
	if s.dead == nil {
		return
	}
	s.fsm.Use(s.mon(c))
	for t := range s.k {
		if s.dead[t][s.q(c, t)] {
			s.fsm.ForgetReach(t)
		}
	}
}
