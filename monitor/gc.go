package monitor

import "github.com/conc-dev/conc/monitor/internal/txn"

// gcMin is the fewest transactions the graph grows by between collections.
const gcMin = 1 << 14

// collect drops every transaction that can lie on no future cycle, and the
// edges into it; it runs when the graph has doubled since the last one, so
// its cost is amortised over the transactions it looks at.
//
// A future cycle through a transaction n needs a new edge somewhere on it.
// New edges enter only open transactions, and the part of the cycle from
// that open transaction to n exists already unless it holds another new
// edge — so n has an open ancestor (or is open). Likewise new edges leave
// only transactions that the per-thread, per-variable and per-lock records
// still name, so n reaches such a live transaction. Velodrome's rule (drop a
// completed transaction with no in-edge) is the first half; the second half
// is what keeps memory flat when a long transaction precedes everything.
// Kept are exactly the transactions reached forwards from the open ones
// and, within those, backwards from the live ones.
func (m *TraceMonitor) collect() {
	m.stats.GCs++
	m.markReached()
	keep := m.keepLive()
	dead := m.dead[:0]
	for _, n := range m.nodes {
		if n.Stamp != m.search.epoch || !keep[n.Idx] {
			n.Dead, n.Out, n.LastOut = true, n.Out[:0], nil
			dead = append(dead, n)
		}
	}
	kept := m.nodes[:0]
	for _, n := range m.nodes {
		if !n.Dead {
			kept = append(kept, n)
		}
	}
	clear(m.nodes[len(kept):])
	m.nodes = kept
	m.rehomeComponents()
	if m.chains() {
		dead = m.contract(dead)
	}
	m.tidy()
	for _, n := range dead {
		if !n.Open && n.Viol == txn.NoViolation { // never so; but a live record must not be reused
			m.arena.Release(n)
		}
	}
	clear(dead)
	m.dead = dead[:0]
	// keepLive reads every record. While collections contract, they
	// come sooner: what they keep is what cannot be contracted, and the
	// graph's peak is what the arena keeps.
	growth := len(m.nodes)
	if m.chains() {
		growth /= 4
	}
	m.gcAt = len(m.nodes) + growth + m.gcMin + len(m.vars)/4
}

// markReached is collect's forward pass: it marks (search epoch, index)
// every transaction an open one reaches.
func (m *TraceMonitor) markReached() {
	s := &m.search
	s.epoch++
	s.order = s.order[:0]
	for _, th := range m.threads {
		if x := th.cur; x != nil && x.Stamp != s.epoch {
			s.mark(x)
		}
	}
	for i := 0; i < len(s.order); i++ {
		for _, e := range s.order[i].Out {
			if e.To.Stamp != s.epoch {
				s.mark(e.To)
			}
		}
	}
}

// tidy renumbers the kept transactions, drops their edges to the dead
// and repeated ones, and the slots' and entries' references to the dead.
func (m *TraceMonitor) tidy() {
	for i, n := range m.nodes {
		n.Pos = int32(i)
		n.Out, n.In = prune(n.Out), prune(n.In)
		n.LastOut = nil
		if k := len(n.Out); k > 0 {
			n.LastOut = n.Out[k-1].To
		}
	}
	m.pruneSlots()
	m.pruneEntries()
}

// mark indexes n as reached by collect's forward pass. Only order and the
// node's stamp and index: when a long transaction reaches every other one
// (sor's main thread), this scratch is as long as the graph, and the tree
// edges that add records would be a large part of the peak heap.
func (s *traceSearch) mark(n *txn.Txn) {
	n.Stamp, n.Idx = s.epoch, int32(len(s.order))
	s.order = append(s.order, n)
}

// keepLive marks the reached transactions that reach a live one: a
// backward search over the reached subgraph from those the records name.
// It walks the in-lists, which hold the same edges as the out-lists seen
// from their targets (no in-list names a recycled node: unlinkOut, prune),
// rather than a reversed copy of the reached subgraph, which would cost
// 24 bytes an edge more at the collection's peak.
func (m *TraceMonitor) keepLive() []bool {
	s := &m.search
	keep := append(s.keep[:0], make([]bool, len(s.order))...)
	named := append(s.named[:0], make([]bool, len(s.order))...)
	s.keep, s.named = keep, named
	s.queue = s.queue[:0]
	seed := func(src txn.Src) {
		if n := src.Txn; n != nil && !src.Stale() && n.Stamp == s.epoch && !keep[n.Idx] {
			keep[n.Idx], named[n.Idx] = true, true
			s.queue = append(s.queue, n.Idx)
		}
	}
	for _, th := range m.threads {
		seed(th.last)
		for _, p := range th.pending {
			seed(p)
		}
	}
	for _, records := range [][]txn.Var{m.vars, m.readRels, m.posts} {
		for i := range records {
			seed(records[i].W)
			records[i].EachRead(seed)
		}
	}
	for _, l := range m.locks {
		seed(l)
	}
	m.eachTokenRecord(func(s *txn.Src) { seed(*s) })
	for q := 0; q < len(s.queue); q++ {
		for _, e := range s.order[s.queue[q]].In {
			if p := e.To; p.Stamp == s.epoch && !keep[p.Idx] {
				keep[p.Idx] = true
				s.queue = append(s.queue, p.Idx)
			}
		}
	}
	return keep
}

// prune drops edges to dead transactions and repeated edges.
func prune(out []txn.Edge) []txn.Edge {
	k := 0
	for _, e := range out {
		if e.To.Dead || e.To.Idx < 0 {
			continue
		}
		out[k] = e
		e.To.Idx = -1 - e.To.Idx // mark seen; undone below
		k++
	}
	for _, e := range out[:k] {
		e.To.Idx = -1 - e.To.Idx
	}
	clear(out[k:])
	return out[:k]
}
