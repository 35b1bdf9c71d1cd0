package monitor

import "github.com/conc-dev/conc/monitor/internal/txn"

// traceSearch is the scratch space of one cycle search, reused across events.
// Nodes reached from the searching transaction x get indices (txn.Txn.Idx)
// into order, in breadth-first order; order[0] is x.
type traceSearch struct {
	epoch  uint32
	order  []*txn.Txn
	parent []traceHop // per index: the tree edge into it (from x)
	next   []traceHop // per index: the first edge of a shortest path back to x
	member []bool     // closuresByBits: per index, already in x's component
	start  []int32    // reverse adjacency (CSR) of the reached subgraph
	rev    []traceHop
	queue  []int32
	keep   []bool // collect: per index, reaches a live transaction
	named  []bool // collect: per index, named by a record (a new edge may leave it)
	// closures' stop: the component every source outside x's own lies
	// in, if one; held, per index, in it (not expanded); loose, per
	// index, held and its way on to a source not known (next is a
	// placeholder: fillWays, stop.go).
	stop    *txn.Txn
	stopHit bool
	held    []bool
	loose   []bool
	ways    pendingWays
	fwRuns  runMemo // same-thread runs along next (runs.go)
	bwRuns  runMemo // same-thread runs along parent
	// steps counts the edges closures' searches have looked at: the tests
	// measure the searches' growth by it rather than by the clock.
	steps int64
}

// traceHop is an edge between two indices of the search, with its witness
// lines (From in the source transaction, At in the target).
type traceHop struct {
	from, to int32
	fromLine int64
	atLine   int64
}

// closures runs when the edges srcs -> x are about to be added and x already
// has successors. A new edge s -> x closes a cycle iff x reaches s (Lemma 1:
// the trace stops being serializable exactly then). The transactions on the
// new cycles are those on some path from x to such an s: each is marked
// cyclic and, the first time, given one cycle through it.
//
// A source already in x's strongly connected component adds no
// transaction to a cycle: every transaction on a path from x to it is in
// the component already (the components are the graph's strongly
// connected components, merged as cycles close). When every source is,
// the search is skipped; when every other source lies in one component,
// the search does not go past it (stopAt). With thousands of transactions
// open at once (more than have reachability bits) it would otherwise cost
// a pass over all that x reaches per event.
func (m *TraceMonitor) closures(x *txn.Txn, srcs []txn.Src, line int64) {
	rx := txn.Find(x)
	stop, outside := stopAt(srcs, rx)
	if !outside {
		return // every source in x's component
	}
	s := &m.search
	s.reach(x, stop)
	hit := s.stopHit
	for _, src := range srcs {
		hit = hit || src.Txn.Stamp == s.epoch
	}
	if !hit {
		return
	}
	if m.first == 0 {
		m.first = line
	}
	s.backFrom(srcs, line)
	s.ways = pendingWays{srcs: srcs, line: line, todo: stop != nil}
	for j, n := range s.order {
		if s.next[j].to >= 0 && !n.Cyclic {
			n.Cyclic = true
			m.violation(n, func() TraceViolation { return m.cycleOf(int32(j)) })
			if !n.Open {
				m.emit(n)
			}
		}
	}
	// Merged only now: the descriptions tell the stop component's
	// transactions by their representative.
	for j, n := range s.order {
		if s.next[j].to >= 0 {
			txn.Union(x, n)
		}
	}
	s.ways = pendingWays{}
}

// reach stamps and indexes every transaction reachable from x, breadth
// first, recording the tree edges, but for those in the component stop
// (if not nil), which it stamps and does not expand (held). Invariant:
// order[:i] are expanded or held.
func (s *traceSearch) reach(x *txn.Txn, stop *txn.Txn) {
	s.epoch++
	s.order, s.parent, s.held = s.order[:0], s.parent[:0], s.held[:0]
	s.stop, s.stopHit = stop, false
	s.add(x, traceHop{from: -1, to: 0})
	for i := 0; i < len(s.order); i++ {
		if s.held[i] {
			continue
		}
		s.steps += int64(len(s.order[i].Out))
		for _, e := range s.order[i].Out {
			if e.To.Stamp != s.epoch {
				s.add(e.To, traceHop{from: int32(i), to: int32(len(s.order)), fromLine: e.From, atLine: e.At})
			}
		}
	}
}

func (s *traceSearch) add(n *txn.Txn, h traceHop) {
	n.Stamp, n.Idx = s.epoch, int32(len(s.order))
	s.order = append(s.order, n)
	s.parent = append(s.parent, h)
	held := s.stop != nil && txn.Find(n) == s.stop
	s.held = append(s.held, held)
	s.stopHit = s.stopHit || held
}

// backFrom searches backwards from the closing sources over the reached
// subgraph: every index it reaches lies on a path x ~> s -> x, and next
// records the first edge of a shortest such path (next[j].to < 0: none).
func (s *traceSearch) backFrom(srcs []txn.Src, line int64) {
	n := len(s.order)
	s.buildReverse()
	s.next = s.next[:0]
	for range n {
		s.next = append(s.next, traceHop{to: -1})
	}
	s.queue = s.queue[:0]
	s.loose = s.loose[:0]
	for range n {
		s.loose = append(s.loose, false)
	}
	for _, src := range srcs {
		if j := src.Txn.Idx; src.Txn.Stamp == s.epoch && s.next[j].to < 0 {
			s.next[j] = traceHop{from: j, to: 0, fromLine: src.Line, atLine: line}
			s.queue = append(s.queue, j)
		}
	}
	// The held transactions reach a source in their component: their way
	// there is left to fillWays, for the cycles that are described.
	for j := range int32(n) {
		if s.held[j] && s.next[j].to < 0 {
			s.next[j], s.loose[j] = traceHop{from: j, to: 0}, true
			s.queue = append(s.queue, j)
		}
	}
	for q := 0; q < len(s.queue); q++ {
		j := s.queue[q]
		s.steps += int64(s.start[j+1] - s.start[j])
		for _, h := range s.rev[s.start[j]:s.start[j+1]] {
			if s.next[h.from].to < 0 {
				s.next[h.from] = h
				s.queue = append(s.queue, h.from)
			}
		}
	}
}

// buildReverse lays out the reached subgraph's edges by target (CSR):
// those of the expanded transactions, every successor of which is reached.
func (s *traceSearch) buildReverse() {
	n := len(s.order)
	s.start = s.start[:0]
	for range n + 1 {
		s.start = append(s.start, 0)
	}
	for i, t := range s.order {
		if !s.held[i] {
			for _, e := range t.Out {
				s.start[e.To.Idx+1]++
			}
		}
	}
	for j := 0; j < n; j++ {
		s.start[j+1] += s.start[j]
	}
	total := s.start[n]
	s.rev = append(s.rev[:0], make([]traceHop, total)...)
	fill := append([]int32(nil), s.start[:n]...)
	for i, t := range s.order {
		if s.held[i] {
			continue
		}
		for _, e := range t.Out {
			j := e.To.Idx
			s.rev[fill[j]] = traceHop{from: int32(i), to: j, fromLine: e.From, atLine: e.At}
			fill[j]++
		}
	}
}
