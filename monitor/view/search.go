package view

import (
	"context"
	"fmt"
	"slices"
)

// workPerState is how many steps of graph search (arcs followed) the
// search may take per state of its budget.
const workPerState = 4096

// Choice states: open, kept by the arcs already there, or decided by an
// arc the search added (before: k → w; after: r → k).
const (
	open int8 = iota
	kept
	before
	after
)

// search decides the polygraph's choices: propagation (a choice one of
// whose arcs would close a cycle takes the other; one whose both would is
// a dead end), then a branch on an open choice, with the dead ends'
// states remembered (by a 128-bit hash of the arcs added). The order of
// the nodes is kept topological as arcs are added (Pearce and Kelly's
// dynamic topological order), so a reachability test looks only at nodes
// between the two ends.
type search struct {
	d        *decider
	g, rev   *csr
	ord, at  []int32 // node -> position, position -> node
	outArcs  map[int32][]int32
	inArcs   map[int32][]int32
	cs       []choice
	state    []int8
	forced   []bool
	trail    []int32 // choices whose state changed, for undo
	h1, h2   uint64
	failed   map[[2]uint64]bool
	mark     []uint32
	stamp    uint32
	stack    []int32 // reach's, reused
	work     int64
	stop     string // why the search stopped (a budget), "" while it runs
	conflict int    // the choice propagation found impossible, -1 none
}

func newSearch(d *decider, g *csr, order []int32, cs []choice) *search {
	n := g.nodes()
	s := &search{d: d, g: g, cs: cs, state: make([]int8, len(cs)), forced: make([]bool, len(cs)),
		ord: make([]int32, n), at: slices.Clone(order), outArcs: map[int32][]int32{}, inArcs: map[int32][]int32{},
		failed: map[[2]uint64]bool{}, mark: make([]uint32, n), conflict: -1}
	for i, v := range order {
		s.ord[v] = int32(i)
	}
	s.rev = newCSR(n, func(add func(from, to, id int32)) {
		for v := range n {
			for _, t := range g.to[g.off[v]:g.off[v+1]] {
				add(t, int32(v), -1)
			}
		}
	})
	return s
}

// run decides and fills res.
func (s *search) run(res *Result) {
	res.Decided = StageSearch
	if !s.propagate() {
		res.Verdict, res.Why = Violation, []Obstacle{s.noPlace(s.conflict)}
		return
	}
	root := s.openChoices()
	ok := s.solve()
	switch {
	case ok:
		res.Verdict, res.Order = Serializable, s.d.txns(s.at)
	case s.stop != "":
		res.Verdict, res.Reason = Unknown, s.stop
	default:
		res.Verdict, res.Why = Violation, []Obstacle{s.exhausted(root)}
	}
}

// rootObstacle is the obstacle of a polygraph known to have no order:
// the choice propagation finds without a place, or the choices it leaves
// open.
func (s *search) rootObstacle() Obstacle {
	if !s.propagate() {
		return s.noPlace(s.conflict)
	}
	return s.exhausted(s.openChoices())
}

// solve searches on from the state after propagation: true when every
// choice is kept or decided, false at a dead end or when a budget stops
// it (stop says so).
func (s *search) solve() bool {
	d := s.d
	if d.states++; d.states > d.maxStates {
		s.stop = fmt.Sprintf("no view-equivalent serial order found within --max-states %d search states", d.maxStates)
		return false
	}
	i := s.firstOpen()
	if i < 0 {
		return true
	}
	key := [2]uint64{s.h1, s.h2}
	if s.failed[key] {
		return false
	}
	for _, opt := range s.preferred(i) {
		mark := len(s.trail)
		s.decide(i, opt, false)
		if s.propagate() && s.solve() {
			return true
		}
		s.undo(mark)
		if s.stop != "" {
			return false
		}
	}
	s.failed[key] = true
	return false
}

// preferred is the order to try choice i's arcs in: the trace's first
// (k's write before w's: k → w).
func (s *search) preferred(i int) [2]int8 {
	if s.cs[i].kLine < s.cs[i].wLine {
		return [2]int8{before, after}
	}
	return [2]int8{after, before}
}

func (s *search) firstOpen() int {
	for i, st := range s.state {
		if st == open {
			return i
		}
	}
	return -1
}

func (s *search) openChoices() []int {
	var out []int
	for i, st := range s.state {
		if st == open {
			out = append(out, i)
		}
	}
	return out
}

// propagate keeps or forces every open choice it can until none changes;
// false when a choice has no place left (conflict names it) or a budget
// stopped the search.
func (s *search) propagate() bool {
	for changed := true; changed; {
		changed = false
		for i := range s.cs {
			if s.state[i] != open {
				continue
			}
			c := &s.cs[i]
			isKept := s.reach(c.k, c.w) || s.reach(c.r, c.k)
			canBefore, canAfter := !isKept && !s.reach(c.w, c.k), !isKept && !s.reach(c.k, c.r)
			switch {
			case s.stop != "":
				return false
			case isKept:
				s.set(i, kept)
			case !canBefore && !canAfter:
				s.conflict = i
				return false
			case !canAfter:
				s.decide(i, before, true)
				changed = true
			case !canBefore:
				s.decide(i, after, true)
				changed = true
			}
		}
	}
	return true
}

// set changes choice i's state, on the trail.
func (s *search) set(i int, st int8) {
	s.state[i] = st
	s.trail = append(s.trail, int32(i))
}

// decide adds choice i's arc opt (before: k → w; after: r → k).
func (s *search) decide(i int, opt int8, forced bool) {
	s.set(i, opt)
	s.forced[i] = forced
	z1, z2 := zobrist(i, opt)
	s.h1, s.h2 = s.h1^z1, s.h2^z2
	from, to := s.ends(i, opt)
	s.addArc(from, to, int32(i))
}

func (s *search) ends(i int, opt int8) (from, to int32) {
	c := &s.cs[i]
	if opt == before {
		return c.k, c.w
	}
	return c.r, c.k
}

// undo restores the state at trail length mark: the choices' states and
// the arcs they added (the order stays topological without them).
func (s *search) undo(mark int) {
	for len(s.trail) > mark {
		i := s.trail[len(s.trail)-1]
		s.trail = s.trail[:len(s.trail)-1]
		if st := s.state[i]; st == before || st == after {
			z1, z2 := zobrist(int(i), st)
			s.h1, s.h2 = s.h1^z1, s.h2^z2
			from, to := s.ends(int(i), st)
			s.outArcs[from] = s.outArcs[from][:len(s.outArcs[from])-1]
			s.inArcs[to] = s.inArcs[to][:len(s.inArcs[to])-1]
		}
		s.state[i] = open
	}
}

// zobrist is choice i's random key for arc opt, two 64-bit halves.
func zobrist(i int, opt int8) (uint64, uint64) {
	x := uint64(i)<<2 | uint64(opt)
	return splitmix(x ^ 0x9e3779b97f4a7c15), splitmix(x ^ 0xd1b54a32d192ed03)
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// tick counts n steps of work and stops the search at its budget or
// the context's end.
func (s *search) tick(n int) {
	s.work += int64(n)
	if s.work&0xffff < int64(n) {
		if err := s.d.ctx.Err(); err != nil {
			s.stop = context.Cause(s.d.ctx).Error()
		}
	}
	if s.work > s.d.maxStates*workPerState && s.stop == "" {
		s.stop = fmt.Sprintf("no view-equivalent serial order found within the work of --max-states %d search states", s.d.maxStates)
	}
}
