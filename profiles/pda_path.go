package profiles

import (
	"errors"

	"github.com/conc-dev/conc/model"
)

// PushdownPath is Path for a pushdown system: a run of a from Init with the
// empty stack, as moves (pushes and pops included), that exhibits profile
// pr and ends with its B move; ia and ib index the A and B moves. ok is
// false when pr is not a profile of a.
//
// It is the membership test of Lemma 4 for one profile: the product of the
// pushdown system with Path's three-phase matcher is again a pushdown
// system, and the saturation of pda.go, with booleans for summaries, finds
// whether it reaches the matcher's final phase. Each fact keeps the rule
// that first derived it (for the call rule: the call site, the callee's exit
// and the pop), which is the "middle split" that expands a summary back into
// the moves of a concrete path. Facts are derived only from older facts, so
// the expansion terminates. Time O(|P|³) per profile.
func PushdownPath(a *model.Automaton, pr Profile) (path []model.Move, ia, ib int, ok bool, err error) {
	if a.Init < 0 || int(a.Init) >= a.NumStates() {
		return nil, 0, 0, false, errors.New("profiles: initial state out of range")
	}
	for _, es := range a.Out {
		for _, e := range es {
			if e.To < 0 || int(e.To) >= a.NumStates() {
				return nil, 0, 0, false, errors.New("profiles: edge to a missing state")
			}
		}
	}
	s := newPathSearch(a, pr)
	if !s.saturate() {
		return nil, 0, 0, false, nil
	}
	return s.witness()
}

// pathSearch is the boolean saturation over product nodes state·3 + phase
// (the phases of matcher in path.go). Entry 0 is the root at (Init, 0).
type pathSearch struct {
	a       *model.Automaton
	m       *matcher
	entries []*pathEntry
	byNode  map[int32]int32 // product push target -> entry
	pops    *popIndex       // pop edges by state and symbol (pda_index.go)
	work    []satFact       // slot unused: facts are (entry, node)
	final   *pathDeriv      // the derivation of the B move, once found
	finalAt int32           // the root node final leaves from
	scans   int             // edges, exits and callers looked at (as in pda.go)
}

type pathEntry struct {
	node    int32
	derived map[int32]pathDeriv
	exits   []int32
	callers map[int32][]pathCaller // by the symbol they push
	seen    map[pathCaller]bool
}

// pathCaller is a call site: fact (entry, node) takes push edge edge.
type pathCaller struct{ entry, node, edge int32 }

// pathDeriv is how a fact (entry, node) was first derived: from the fact
// (entry, prev) by edge edge of prev's state; for the call rule, edge is the
// push, and the callee's fact (callee, exit) with pop edge pop follows it.
// The entry's seed has prev -1.
type pathDeriv struct {
	prev, edge, callee, exit, pop int32
}

func newPathSearch(a *model.Automaton, pr Profile) *pathSearch {
	s := &pathSearch{a: a, m: &matcher{a: a, pr: pr}, byNode: map[int32]int32{}, pops: newPopIndex(a)}
	s.newEntry(3 * a.Init)
	return s
}

func (s *pathSearch) newEntry(node int32) int32 {
	e := int32(len(s.entries))
	s.entries = append(s.entries, &pathEntry{node: node, derived: map[int32]pathDeriv{},
		callers: map[int32][]pathCaller{}, seen: map[pathCaller]bool{}})
	s.derive(e, node, pathDeriv{prev: -1, callee: -1})
	return e
}

// derive adds fact (e, node) unless it is known.
func (s *pathSearch) derive(e, node int32, d pathDeriv) {
	en := s.entries[e]
	if _, ok := en.derived[node]; ok {
		return
	}
	en.derived[node] = d
	if e != 0 && hasPop(s.a, node/3) {
		en.exits = append(en.exits, node)
	}
	s.work = append(s.work, satFact{entry: e, state: node})
}

// saturate derives facts until the final phase is reached at the root (true)
// or nothing is left to derive (false). The rules are pda.go's, on product
// nodes; an event moves the phase by the matcher, and the event that
// completes the profile is accepted only at the root.
func (s *pathSearch) saturate() bool {
	for len(s.work) > 0 && s.final == nil {
		f := s.work[0]
		s.work = s.work[1:]
		q, ph := f.state/3, f.state%3
		for i, ed := range s.a.Out[q] {
			s.scans++
			switch ed.Stack {
			case model.StackNone:
				s.step(f.entry, f.state, int32(i), ed)
			case model.StackPush:
				if f.entry == 0 {
					s.step(0, f.state, int32(i), ed)
				}
				next, _ := s.m.step(ph, ed.Ev)
				for _, nph := range next {
					if nph >= 0 {
						s.call(pathCaller{f.entry, f.state, int32(i)}, 3*ed.To+nph)
					}
				}
			case model.StackPop:
				s.ret(f.entry, f.state, int32(i))
			}
		}
	}
	return s.final != nil
}

func (s *pathSearch) step(e, node, i int32, ed model.Edge) {
	next, done := s.m.step(node%3, ed.Ev)
	if done && e == 0 {
		s.final, s.finalAt = &pathDeriv{prev: node, edge: i, callee: -1}, node
		return
	}
	for _, nph := range next {
		if nph >= 0 {
			s.derive(e, 3*ed.To+nph, pathDeriv{prev: node, edge: i, callee: -1})
		}
	}
}

// call registers call site c, whose push leads to product node target.
func (s *pathSearch) call(c pathCaller, target int32) {
	callee, ok := s.byNode[target]
	if !ok {
		callee = s.newEntry(target)
		s.byNode[target] = callee
	}
	ce := s.entries[callee]
	sym := s.a.Out[c.node/3][c.edge].Sym
	if !ce.seen[c] {
		ce.seen[c] = true
		ce.callers[sym] = append(ce.callers[sym], c)
	}
	for _, x := range ce.exits {
		s.scans++
		for _, j := range s.pops.of(x/3, sym) {
			s.scans++
			s.complete(c, callee, x, j)
		}
	}
}

// ret returns from (e, x) by pop edge j to every caller of e.
func (s *pathSearch) ret(e, x, j int32) {
	if e == 0 {
		return
	}
	for _, c := range s.entries[e].callers[s.a.Out[x/3][j].Sym] {
		s.scans++
		s.complete(c, e, x, j)
	}
}

func (s *pathSearch) complete(c pathCaller, callee, x, j int32) {
	pop := s.a.Out[x/3][j]
	d := pathDeriv{prev: c.node, edge: c.edge, callee: callee, exit: x, pop: j}
	next, done := s.m.step(x%3, pop.Ev)
	if done && c.entry == 0 {
		s.final, s.finalAt = &d, c.node
		return
	}
	for _, nph := range next {
		if nph >= 0 {
			s.derive(c.entry, 3*pop.To+nph, d)
		}
	}
}

// phasedMove is a move with the matcher's phase before and after it (3 for
// the final move).
type phasedMove struct {
	mv       model.Move
	from, to int32
}

// witness expands the root's derivation of the final node into moves.
func (s *pathSearch) witness() ([]model.Move, int, int, bool, error) {
	var pm []phasedMove
	pm = s.expand(pm, 0, s.finalAt)
	pm = s.expandStep(pm, *s.final, 3)
	path := make([]model.Move, len(pm))
	ia, ib := -1, len(pm)-1
	for k, m := range pm {
		path[k] = m.mv
		if ia < 0 && m.from == 0 && m.to != 0 {
			ia = k
		}
	}
	if ia < 0 {
		return nil, 0, 0, false, errors.New("profiles: internal error: witness path takes no A move")
	}
	return path, ia, ib, true, nil
}

// expand appends the moves of the same-level path that derived (e, node).
func (s *pathSearch) expand(pm []phasedMove, e, node int32) []phasedMove {
	en := s.entries[e]
	var chain []int32 // nodes from node back to the seed's successor
	for n := node; en.derived[n].prev >= 0; n = en.derived[n].prev {
		chain = append(chain, n)
	}
	for k := len(chain) - 1; k >= 0; k-- {
		pm = s.expandStep(pm, en.derived[chain[k]], chain[k]%3)
	}
	return pm
}

// expandStep appends the moves of one derivation step ending in phase to.
func (s *pathSearch) expandStep(pm []phasedMove, d pathDeriv, to int32) []phasedMove {
	from := d.prev % 3
	if d.callee < 0 {
		return append(pm, phasedMove{model.Move{From: d.prev / 3, Edge: d.edge}, from, to})
	}
	cn := s.entries[d.callee].node
	pm = append(pm, phasedMove{model.Move{From: d.prev / 3, Edge: d.edge}, from, cn % 3})
	pm = s.expand(pm, d.callee, d.exit)
	return append(pm, phasedMove{model.Move{From: d.exit / 3, Edge: d.pop}, d.exit % 3, to})
}
