package monitor

import "github.com/conc-dev/conc/monitor/internal/txn"

// closuresByBits is closures for an x with a reachability bit: the new edge
// u -> x closes a cycle iff u carries x's bit. The transactions newly on a
// cycle are those on a path x ~> u not yet in x's strongly connected
// component: a backward search from the closing sources over in-edges,
// through transactions that carry x's bit, that does not go past members of
// x's component — every transaction x reaches that reaches a member is a
// member already. So each transaction is searched through about once in
// the whole run, however often cycles close through the same component.
func (m *TraceMonitor) closuresByBits(x *txn.Txn, srcs []txn.Src, line int64) {
	xb := reachBits(x)
	hit := false
	for _, src := range srcs {
		hit = hit || src.Txn.Mask&xb != 0
	}
	if !hit {
		return
	}
	if m.first == 0 {
		m.first = line
	}
	s := &m.search
	s.epoch++
	s.order, s.next, s.member = s.order[:0], s.next[:0], s.member[:0]
	s.loose = s.loose[:0] // no transaction is loose here (stop.go)
	rx := txn.Find(x)
	s.visit(x, traceHop{to: -1}, true)
	s.queue = s.queue[:0]
	for _, src := range srcs {
		if u := src.Txn; u.Mask&xb != 0 && u.Stamp != s.epoch {
			j := s.visit(u, traceHop{to: 0, fromLine: src.Line, atLine: line}, txn.Find(u) == rx)
			s.enqueue(j)
		}
	}
	for q := 0; q < len(s.queue); q++ {
		j := s.queue[q]
		for _, e := range s.order[j].In {
			p := e.To
			switch {
			case p.Dead || p.Mask&xb == 0:
			case p == x && s.next[0].to < 0:
				s.next[0] = traceHop{from: 0, to: j, fromLine: e.From, atLine: e.At}
			case p.Stamp != s.epoch:
				k := s.visit(p, traceHop{to: j, fromLine: e.From, atLine: e.At}, txn.Find(p) == rx)
				s.enqueue(k)
			}
		}
	}
	m.markFound(x, xb)
}

// visit indexes n in the backward search; h is its first hop towards x.
func (s *traceSearch) visit(n *txn.Txn, h traceHop, member bool) int32 {
	j := int32(len(s.order))
	n.Stamp, n.Idx = s.epoch, j
	h.from = j
	s.order = append(s.order, n)
	s.next = append(s.next, h)
	s.member = append(s.member, member)
	return j
}

// enqueue queues j for expansion unless it is a member of x's component.
func (s *traceSearch) enqueue(j int32) {
	if !s.member[j] {
		s.queue = append(s.queue, j)
	}
}

// markFound puts every non-member the search found (and x, the first time)
// into x's component, cyclic, each with one cycle through it.
func (m *TraceMonitor) markFound(x *txn.Txn, xb uint64) {
	s := &m.search
	for j, n := range s.order {
		if s.member[j] && (j != 0 || x.Cyclic) {
			continue
		}
		txn.Union(x, n)
		if n.Cyclic {
			continue
		}
		n.Cyclic = true
		m.violation(n, func() TraceViolation { return m.cycleByBits(x, xb, int32(j)) })
		if !n.Open {
			m.emit(n)
		}
	}
}

// cycleByBits: from j along next hops to x, then a path from x to j found
// by a bounded backward search from j through transactions x reaches (any
// such transaction has a path from x, so even a cut-short search lists
// real conflicts). Where that listing would be elided, cycleByJumps tries
// program-order jumps first (entries.go).
func (m *TraceMonitor) cycleByBits(x *txn.Txn, xb uint64, j int32) TraceViolation {
	s := &m.search
	n := s.order[j]
	v := TraceViolation{Thread: n.Thread, Begin: n.Begin, End: n.End}
	fw, closed := s.wayBack(j, m.opts.MaxCycle)
	var bw []walkHop
	found := false
	if closed {
		bw, found = m.pathFrom(x, xb, n, m.searchBudget())
		bw = shortcut(bw, true)
	}
	if !found || len(fw)+len(bw)-1 > m.opts.MaxCycle {
		if m.cycleByJumps(&v, x, xb, j, fw, closed) {
			return v
		}
		// A way back longer than the listing is elided anyway: then only
		// the hops nearest n are shown, and any chain of them will do.
		if !found {
			bw = shortcut(m.chainBack(xb, n), true)
		}
	}
	_, _, down := s.runBack(j)
	m.describe(&v, fw, bw, closed && found, int(down)+len(bw)-1)
	return v
}

// searchBudget bounds the searches for a cycle's way back (pathFrom,
// jumpFrom: transactions) and how far cycleByJumps follows the way to x
// (hops): well past MaxCycle, since shortcuts can shorten what they find.
func (m *TraceMonitor) searchBudget() int { return 2*m.opts.MaxCycle + 16 }

// pathFrom returns the edges of a path x ~> n, nearest to n first, found by
// a breadth-first search backwards from n over at most budget transactions
// that x reaches, or false if it runs out. It marks transactions with its
// own epoch (pstamp) so it allocates nothing but the path.
func (m *TraceMonitor) pathFrom(x *txn.Txn, xb uint64, n *txn.Txn, budget int) ([]walkHop, bool) {
	if n == x {
		return nil, true
	}
	p := &m.paths
	p.start(n)
	for q := 0; q < len(p.queue) && len(p.queue) < budget; q++ {
		c := p.queue[q]
		// Newest edges first, and only so many: a long-lived transaction
		// (a main thread's whole run) can have millions of in-edges, which
		// every search through it would otherwise scan. Cutting the scan
		// short can only end in the chain fallback (an elided listing),
		// never in a conflict that is not there.
		for i := len(c.In) - 1; i >= max(0, len(c.In)-budget); i-- {
			e := c.In[i]
			src := e.To
			if src.PStamp == p.epoch || src.Dead || src.Mask&xb == 0 {
				continue
			}
			p.reach(src, walkHop{from: src, to: c, fromLine: e.From, atLine: e.At}, nil)
			if src == x {
				return p.path(nil, x, n), true
			}
			p.queue = append(p.queue, src)
		}
	}
	return nil, false
}

// pathSearch is the scratch space of pathFrom and jumpFrom.
type pathSearch struct {
	epoch  uint32
	toward []walkHop // per pidx: the edge towards n
	// via, per pidx: nil, or where a program-order hop goes on from
	// toward's target (jumpFrom)
	via   []*txn.Txn
	queue []*txn.Txn
	hops  []walkHop // jumpFrom's path
	walk  []walkHop // cycleByJumps' closed walk
}

// chainBack follows in-edges from n through transactions x reaches, for as
// many hops as a cycle listing shows, never twice through one transaction.
func (m *TraceMonitor) chainBack(xb uint64, n *txn.Txn) []walkHop {
	var path []walkHop
	m.paths.epoch++
	n.PStamp = m.paths.epoch
	for c := n; len(path) <= m.opts.MaxCycle; {
		var next *walkHop
		for i := len(c.In) - 1; i >= max(0, len(c.In)-4*m.opts.MaxCycle-64); i-- {
			e := c.In[i]
			if p := e.To; p.PStamp != m.paths.epoch && !p.Dead && p.Mask&xb != 0 {
				next = &walkHop{from: p, to: c, fromLine: e.From, atLine: e.At}
				break
			}
		}
		if next == nil {
			return path
		}
		path = append(path, *next)
		next.from.PStamp = m.paths.epoch
		c = next.from
	}
	return path
}
