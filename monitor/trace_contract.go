package monitor

import "math"

// Contraction. Once no violation found from now on will be described
// (countOnly: conc monitor's default answer spells out the first cycle
// only, and counts the transactions on the others), a transaction is kept
// only for what it can still close, and a collection contracts the
// transactions whose place another can take, so that memory follows what
// is still open, not the trace's length. Two kinds go:
//
//   - A completed member of a strongly connected component. Whoever
//     reaches it reaches the component's representative and the other
//     way round, so an edge to or from it can as well be one to or from
//     the representative: its edges move there (those inside the
//     component go), and it was counted when it joined. A main thread
//     that forks and joins its workers makes one component of a million
//     transactions (jgf-sor).
//   - A completed transaction c, on no cycle yet and named by no record
//     (so no edge will ever leave it), whose every edge leads to one
//     transaction q, also complete and on no cycle, every other source of
//     which is a source of c: q's sources are then c and c's sources
//     (final, both being complete), so a transaction reaches q iff it
//     reaches c or is c, and c reaches exactly q and what q reaches, now
//     and later. c merges into q: q takes c's sources. c lies on a cycle
//     iff q reaches a source of c, iff q does (q reaches c only through
//     c's sources): so q's weight counts c, and q's violation counts its
//     weight. (A c that a record names could not merge: a later edge
//     from it would put on a cycle c, not q.) A worker whose every
//     transaction the main thread reaches, but none yet reaches back
//     (jgf-crypt), is a chain of a million such transactions, broken
//     only where a record names one.
//
// What a future event can close is unchanged: its edge enters an open
// transaction (never merged), from a source whose reach, among the
// transactions kept, is the same before and after. A record of a
// component's member names the representative instead; it keeps its
// thread (liveOf's rule about the thread's garbage still holds: the two
// are garbage together) and takes the representative's begin as its line
// if its own is earlier, so that it is stale exactly when that node is
// recycled (trace_garbage.go). Lines then
// no longer witness the edges they make, which only descriptions, no
// longer made, would show.

// countOnly tells whether violations found from now on are counted only
// (violation): the cycles of the graph need not be spelled out again.
func (m *TraceMonitor) countOnly() bool {
	return m.opts.OnViolation == nil && m.opts.MaxViolations > 0 && m.described >= m.opts.MaxViolations
}

// contract contracts, within m.nodes (the kept transactions, each
// pointing straight at a kept representative: rehomeComponents), the
// completed members of components and the chains above, appending them
// to dead for recycling; the edges it leaves may repeat (prune).
func (m *TraceMonitor) contract(dead []*traceTxn) []*traceTxn {
	k := len(dead)
	for _, n := range m.nodes {
		if n.scc != nil && !n.open && n.viol == nil {
			r := n.scc
			r.out = append(r.out, n.out...)
			r.in = append(r.in, n.in...)
			dead = m.merge(dead, n, r)
		}
	}
	for _, c := range m.nodes {
		if m.search.named[c.idx] {
			continue
		}
		if q := chainNext(c); q != nil {
			q.weight += c.weight + 1
			q.in = append(q.in[:0], c.in...)
			dead = m.merge(dead, c, q)
		}
	}
	if len(dead) == k {
		return dead
	}
	kept := m.nodes[:0]
	for _, n := range m.nodes {
		if !n.merged {
			n.out, n.in = redirect(n, n.out), redirect(n, n.in)
			kept = append(kept, n)
		}
	}
	clear(m.nodes[len(kept):])
	m.nodes = kept
	m.redirectRecords()
	for t := range m.threads { // only descriptions jump by entries
		m.threads[t].entries, m.threads[t].entryAt = nil, nil
	}
	return dead
}

// merge marks n merged into into and hands it to dead.
func (m *TraceMonitor) merge(dead []*traceTxn, n, into *traceTxn) []*traceTxn {
	n.merged, n.dead, n.scc = true, true, into
	n.out, n.in, n.lastOut = n.out[:0], n.in[:0], nil
	m.stats.Contracted++
	return append(dead, n)
}

// heir is the transaction n's place went to: n itself unless merged.
func heir(n *traceTxn) *traceTxn {
	for n.merged {
		n = n.scc
	}
	return n
}

// plain tells whether n, kept, can merge into another or take one in: it
// is complete, on no cycle, and in no component.
func plain(n *traceTxn) bool {
	return !n.dead && !n.open && !n.cyclic && n.scc == nil && n.size == 0 && n.viol == nil
}

// maxChainScan bounds the edge lists chainNext compares, whose cost is
// their product.
const maxChainScan = 16

// chainNext is the transaction c merges into (the second kind of
// contraction), or nil. Edges to collected transactions do not count:
// they are gone from the graph.
func chainNext(c *traceTxn) *traceTxn {
	if !plain(c) || len(c.in) > maxChainScan {
		return nil
	}
	var q *traceTxn
	for _, e := range c.out {
		switch t := heir(e.to); {
		case t.dead:
		case q == nil:
			q = t
		case t != q:
			return nil
		}
	}
	if q == nil || q == c || !plain(q) || len(q.in) > maxChainScan || int64(q.weight)+int64(c.weight)+1 > math.MaxInt32 {
		return nil
	}
	for _, e := range q.in {
		if p := heir(e.to); p != c && !p.dead && !sourceOf(p, c) {
			return nil
		}
	}
	return q
}

// sourceOf tells whether p is a source of c.
func sourceOf(p, c *traceTxn) bool {
	for _, e := range c.in {
		if heir(e.to) == p {
			return true
		}
	}
	return false
}

// redirect points n's edges to merged transactions at their heirs,
// dropping those that become loops on n.
func redirect(n *traceTxn, edges []traceEdge) []traceEdge {
	k := 0
	for _, e := range edges {
		if e.to = heir(e.to); e.to != n {
			edges[k] = e
			k++
		}
	}
	clear(edges[k:])
	return edges[:k]
}

// redirectRecords renames every record of a merged transaction to its
// heir, before the merged node is recycled.
func (m *TraceMonitor) redirectRecords() {
	for t := range m.threads {
		th := &m.threads[t]
		rename(&th.last)
		for i := range th.pending {
			rename(&th.pending[i])
		}
	}
	for i := range m.vars {
		v := &m.vars[i]
		rename(&v.w)
		rename(&v.r0)
		for j := range v.rest {
			rename(&v.rest[j].traceSrc)
		}
	}
	for i := range m.locks {
		rename(&m.locks[i])
	}
}

// rename points s, if it names a merged transaction, at its heir.
func rename(s *traceSrc) {
	if n := s.txn; n != nil && n.merged && !s.stale() {
		r := heir(n)
		s.txn, s.line = r, max(s.line, r.begin)
	}
}
