package profiles

import (
	"errors"

	"github.com/conc-dev/conc/model"
)

// Path finds a shortest path of a finite automaton that exhibits profile pr:
// from Init, an A-event, then (for Same) a B-event with no end in between or
// (for Diff) an end and later a B-event. The path ends with the B move (the A
// move for Single); ia and ib index the A and B moves in it (equal for
// Single). ok is false when pr is not a profile of the automaton.
//
// This is the paper's membership test ("one can establish in time linear in
// n whether a profile π is a profile of T_i"): a breadth-first search of the
// product of the automaton with a three-phase matcher for π, O(edges). The
// engines use it to turn profiles back into concrete witness paths; the tests
// use it as an independent oracle for Extract.
func Path(a *model.Automaton, pr Profile) (path []model.Move, ia, ib int, ok bool, err error) {
	if a.Pushdown() {
		return nil, 0, 0, false, errors.New("profiles: Path needs a finite automaton, not a pushdown system")
	}
	if path, ia, ib, ok, line := linePath(a, pr); line {
		return path, ia, ib, ok, nil
	}
	s := newMatcher(a, pr)
	final, found := s.search()
	if !found {
		return nil, 0, 0, false, nil
	}
	path, ia = s.trace(final)
	ib = len(path) - 1
	if pr.Kind == KindSingle {
		ia = ib
	}
	return path, ia, ib, true, nil
}

// matcher is the product search: node = state·3 + phase, where phase 0 is
// "A not yet taken", 1 "A taken, in its transaction", 2 "A's transaction
// closed" (Diff only).
type matcher struct {
	a      *model.Automaton
	pr     Profile
	parent []int32 // node -> predecessor node; -1 unseen; the root points to itself
	via    []int32 // node -> edge index taken into it
}

func newMatcher(a *model.Automaton, pr Profile) *matcher {
	n := 3 * a.NumStates()
	m := &matcher{a: a, pr: pr, parent: make([]int32, n), via: make([]int32, n)}
	for i := range m.parent {
		m.parent[i] = -1
	}
	return m
}

// search runs the breadth-first search. The returned value is the node the
// final (B) move leaves from and the index of that move, packed as
// node<<32|edge, since the final move leads out of the product.
func (m *matcher) search() (int64, bool) {
	root := 3 * m.a.Init
	m.parent[root] = root
	queue := []int32{root}
	for len(queue) > 0 {
		node := queue[0]
		queue = queue[1:]
		q, ph := node/3, node%3
		for ei, e := range m.a.Out[q] {
			next, done := m.step(ph, e.Ev)
			if done {
				return int64(node)<<32 | int64(ei), true
			}
			for _, nph := range next {
				if nph < 0 {
					continue
				}
				if to := 3*e.To + nph; m.parent[to] < 0 {
					m.parent[to], m.via[to] = node, int32(ei)
					queue = append(queue, to)
				}
			}
		}
	}
	return 0, false
}

// step is the matcher's transition on one event from phase ph: the phases
// it may move to (-1 for none) and whether the profile is complete.
func (m *matcher) step(ph int32, ev model.Event) ([2]int32, bool) {
	l, pr := LetterOf(ev), m.pr
	switch ph {
	case 0:
		if l == pr.A && pr.Kind == KindSingle {
			return [2]int32{-1, -1}, true
		}
		if l == pr.A {
			return [2]int32{0, 1}, false // take this A, or wait for a later one
		}
		return [2]int32{0, -1}, false
	case 1:
		switch {
		case l == pr.B && pr.Kind == KindSame:
			return [2]int32{-1, -1}, true
		case ev.Op == model.OpEnd && pr.Kind == KindSame:
			return [2]int32{-1, -1}, false
		case ev.Op == model.OpEnd:
			return [2]int32{2, -1}, false
		}
		return [2]int32{1, -1}, false
	}
	if l == pr.B {
		return [2]int32{-1, -1}, true
	}
	return [2]int32{2, -1}, false
}

// trace rebuilds the path ending with the final move and reports the index
// of the move that took phase 0 to phase 1 (the A move).
func (m *matcher) trace(final int64) ([]model.Move, int) {
	node, ei := int32(final>>32), int32(final&0xffffffff)
	path := []model.Move{{From: node / 3, Edge: ei}}
	ia := -1
	for m.parent[node] != node {
		prev := m.parent[node]
		if prev%3 == 0 && node%3 == 1 {
			ia = len(path)
		}
		path = append(path, model.Move{From: prev / 3, Edge: m.via[node]})
		node = prev
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	if ia >= 0 {
		ia = len(path) - 1 - ia
	}
	return path, ia
}

// linePath is Path for a straight-line automaton, by one scan and without
// the search's per-state arrays (a trace of 10^7 events has 3·10^7 product
// nodes). It stops at the earliest move that completes pr, as the
// breadth-first search would; line is false when the reachable part is not
// one path (a branch, or more moves than states: a cycle).
func linePath(a *model.Automaton, pr Profile) (path []model.Move, ia, ib int, ok, line bool) {
	first, lastA, ended := -1, -1, false // first A; last A in the open transaction; an end after first
	for q := a.Init; len(path) <= a.NumStates(); {
		es := a.Out[q]
		if len(es) != 1 {
			return nil, 0, 0, false, len(es) == 0
		}
		k, ev := len(path), es[0].Ev
		path = append(path, model.Move{From: q, Edge: 0})
		l := LetterOf(ev)
		switch {
		case pr.Kind == KindSingle && l == pr.A:
			return path, k, k, true, true
		case pr.Kind == KindSame && l == pr.B && lastA >= 0:
			return path, lastA, k, true, true
		case pr.Kind == KindDiff && l == pr.B && ended:
			return path, first, k, true, true
		}
		switch {
		case l == pr.A:
			lastA = k
			if first < 0 {
				first = k
			}
		case ev.Op == model.OpBegin || ev.Op == model.OpEnd:
			lastA = -1
			ended = ended || (first >= 0 && ev.Op == model.OpEnd)
		}
		q = es[0].To
	}
	return nil, 0, 0, false, false
}
