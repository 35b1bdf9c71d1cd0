package monitor

import (
	"math"

	"github.com/conc-dev/conc/monitor/internal/txn"
)

// Contraction. conc monitor's default answer spells out the first cycle
// only, and counts the transactions on the others (MaxViolations 1). A
// transaction is then kept only for what it can still close, and a
// collection contracts the transactions whose place another can take, so
// that memory follows what is still open, not the trace's length. Two
// kinds go:
//
//   - Once only counting is left (countOnly), a completed member of a
//     strongly connected component. Whoever reaches it reaches the
//     component's representative and the other way round, so an edge to
//     or from it can as well be one to or from the representative: its
//     edges move there (those inside the component go), and it was
//     counted when it joined. A main thread that forks and joins its
//     workers makes one component of a million transactions (jgf-sor).
//   - A completed transaction c, on no cycle yet and named by no record
//     (so no edge will ever leave it), whose every edge leads to one
//     transaction q (or to later transactions of its own thread, q the
//     first of them: it reaches the others along program order), also
//     complete and on no cycle, every other source of which is a source of
//     c or an earlier transaction of c's thread (an ancestor of c along
//     program order): q's ancestors are then c and c's (final, both being
//     complete), so a transaction reaches q iff it reaches c or is c, and
//     c reaches exactly q and what q reaches, now and later. c merges into
//     q: q takes c's sources, and c's edges to its later transactions go.
//     c lies on a cycle iff q reaches a source of c, iff q does (q reaches
//     c only through c's sources): so q's weight counts c, and q's
//     violation counts its weight. (A c that a record names could not
//     merge: a later edge from it would put on a cycle c, not q.) A worker
//     whose every transaction the main thread reaches, but none reaches
//     back yet (jgf-crypt), is a chain of a million such transactions,
//     broken only where a record names one.
//
// What a future event can close is unchanged: its edge enters an open
// transaction (never merged), from a source whose reach, among the
// transactions kept, is the same before and after.
//
// Before the first cycle is spelled out, every edge must stay a real one,
// with the lines of its events (strict): a chain's c then merges only if
// each of its sources in another thread than q's is a source of q
// already, and the sources in q's thread become program-order edges into
// q's begin (docs/spec.md §1: every transaction of a thread has an edge to
// every later one). The cycle listed is then a cycle of the conflict
// graph that skips c, and its subject is the open transaction that closes
// it, never merged. After it, lines no longer witness anything (no cycle
// is listed again): a record of a component's member names the
// representative instead, keeping its thread (liveOf's rule about the
// thread's garbage still holds: the two are garbage together) and taking
// the representative's begin as its line if its own is earlier, so that
// it is stale exactly when that node is recycled (garbage.go).

// countOnly tells whether violations found from now on are counted only
// (violation): the cycles of the graph need not be spelled out again.
func (m *TraceMonitor) countOnly() bool {
	return m.opts.OnViolation == nil && m.opts.MaxViolations > 0 && m.described >= m.opts.MaxViolations
}

// chains tells whether chains may merge: no transaction but the first
// cycle's subject will have its cycle spelled out, so a merged one, which
// is never listed, can only be counted.
func (m *TraceMonitor) chains() bool {
	return m.opts.OnViolation == nil && m.opts.MaxViolations == 1 || m.countOnly()
}

// contract contracts, within m.nodes (the kept transactions, each
// pointing straight at a kept representative: rehomeComponents), the
// completed members of components and the chains above, appending them
// to dead for recycling; the edges it leaves may repeat (prune).
func (m *TraceMonitor) contract(dead []*txn.Txn) []*txn.Txn {
	k := len(dead)
	counting := m.countOnly()
	if counting {
		dead = m.contractComponents(dead)
	}
	if m.chains() {
		dead = m.mergeChains(dead, !counting)
	}
	if len(dead) == k {
		return dead
	}
	kept := m.nodes[:0]
	for _, n := range m.nodes {
		if !n.Merged {
			n.Out, n.In = redirectOut(n, n.Out, !counting), redirectIn(n, n.In)
			kept = append(kept, n)
		}
	}
	clear(m.nodes[len(kept):])
	m.nodes = kept
	if counting {
		m.redirectRecords()
		for t := range m.threads { // only descriptions jump by entries
			m.threads[t].entries, m.threads[t].entryAt = nil, nil
		}
	}
	return dead
}

// contractComponents contracts the completed members of components into
// their representatives (the first kind above). They are all marked
// first, so that the edges inside a component, most of a large one's, are
// dropped rather than moved.
func (m *TraceMonitor) contractComponents(dead []*txn.Txn) []*txn.Txn {
	k := len(dead)
	for _, n := range m.nodes {
		if n.SCC != nil && !n.Open && n.Viol == txn.NoViolation {
			dead = m.merge(dead, n, n.SCC)
		}
	}
	for _, n := range dead[k:] {
		r := n.SCC
		r.Out = appendOutside(r.Out, n.Out, r)
		r.In = appendOutside(r.In, n.In, r)
		n.Out, n.In = n.Out[:0], n.In[:0]
	}
	return dead
}

// appendOutside appends to dst the edges of src that leave r's component.
func appendOutside(dst, src []txn.Edge, r *txn.Txn) []txn.Edge {
	for _, e := range src {
		if heir(e.To) != r {
			dst = append(dst, e)
		}
	}
	return dst
}

// mergeChains merges the chains' transactions (the second kind above);
// strict keeps every edge real.
func (m *TraceMonitor) mergeChains(dead []*txn.Txn, strict bool) []*txn.Txn {
	for _, c := range m.nodes {
		if m.search.named[c.Idx] {
			continue
		}
		q := chainNext(c, strict)
		if q == nil {
			continue
		}
		q.Weight += c.Weight + m.blocks(c)
		if strict {
			q.In = poSources(q, c)
		} else {
			// q's other sources are c's or ancestors of them
			// (chainNext): c's will do.
			q.In = append(q.In[:0], c.In...)
		}
		c.Out, c.In = c.Out[:0], c.In[:0]
		dead = m.merge(dead, c, q)
	}
	return dead
}

// poSources is q's sources once c merges into it, strictly: its own but
// c (and those merged into a chain's next transaction, which goes on to
// q along program order), and c's sources in q's thread, as program-order
// edges into q's begin.
func poSources(q, c *txn.Txn) []txn.Edge {
	in := q.In
	k := 0
	for _, e := range in {
		if e.To != c && !chainMerged(e.To) {
			in[k] = e
			k++
		}
	}
	in = in[:k]
	for _, e := range c.In {
		p := heir(e.To)
		if p.Dead || p.Thread != q.Thread || ownSource(p, in) {
			continue
		}
		from := e.From
		if p != e.To {
			from = lastLine(p) // e.from is the merged one's
		}
		in = append(in, txn.Edge{To: p, From: from, At: q.Begin})
	}
	return in
}

// merge marks n merged into into and hands it to dead; its edges are
// the caller's to move.
func (m *TraceMonitor) merge(dead []*txn.Txn, n, into *txn.Txn) []*txn.Txn {
	n.Merged, n.Dead, n.SCC = true, true, into
	n.LastOut = nil
	m.stats.Contracted++
	return append(dead, n)
}

// heir is the transaction n's place went to: n itself unless merged.
func heir(n *txn.Txn) *txn.Txn {
	for n.Merged {
		n = n.SCC
	}
	return n
}

// plain tells whether n, kept, can merge into another or take one in: it
// is complete, on no cycle, and in no component.
func plain(n *txn.Txn) bool {
	return !n.Dead && !n.Open && !n.Cyclic && n.SCC == nil && n.Size == 0 && n.Viol == txn.NoViolation
}

// maxChainScan bounds the edge lists chainNext compares, whose cost is
// their product.
const maxChainScan = 16

// chainNext is the transaction c merges into (the second kind of
// contraction), or nil. Edges to collected transactions do not count:
// they are gone from the graph.
func chainNext(c *txn.Txn, strict bool) *txn.Txn {
	if !plain(c) || len(c.In) > maxChainScan {
		return nil
	}
	q := successor(c)
	if q == nil || q == c || !plain(q) || len(q.In) > maxChainScan || int64(q.Weight)+int64(c.Weight)+1 > math.MaxInt32 {
		return nil
	}
	for _, e := range q.In {
		if p := heir(e.To); p != c && !p.Dead && !sourceOf(p, c) && !earlier(p, c) {
			return nil
		}
	}
	if strict {
		for _, e := range c.In {
			if p := heir(e.To); !p.Dead && p.Thread != q.Thread && !sourceOf(p, q) {
				return nil
			}
		}
	}
	return q
}

// successor is c's one successor, or, if all its successors are later
// transactions of its own thread, the first of them: c reaches the others
// through it, along program order (every transaction between two kept
// ones of a thread is kept, with its program-order edges: an ancestor of
// a kept transaction is reached by what reaches it). nil if neither.
func successor(c *txn.Txn) *txn.Txn {
	var q *txn.Txn
	own := true // every successor so far is a later one of c's thread
	for _, e := range c.Out {
		t := heir(e.To)
		switch {
		case t.Dead:
			continue
		case q == nil:
			q = t
		case t == q:
		case own && t.Thread == c.Thread && q.Thread == c.Thread:
			q = minBegin(q, t)
			continue
		default:
			return nil
		}
		own = own && t.Thread == c.Thread
	}
	if !own && q != nil {
		for _, e := range c.Out { // more than one: all must be q
			if t := heir(e.To); !t.Dead && t != q {
				return nil
			}
		}
	}
	return q
}

// minBegin is the earlier of two transactions.
func minBegin(a, b *txn.Txn) *txn.Txn {
	if b.Begin < a.Begin {
		return b
	}
	return a
}

// earlier tells whether p is an earlier transaction of c's thread, hence
// an ancestor of c along program order.
func earlier(p, c *txn.Txn) bool { return p.Thread == c.Thread && p.Begin < c.Begin }

// chainMerged tells whether n merged into a chain's next transaction (a
// component's members, merged too, are on a cycle).
func chainMerged(n *txn.Txn) bool { return n.Merged && !n.Cyclic }

// ownSource tells whether p is a source by an edge of in, an in-list,
// that names p itself.
func ownSource(p *txn.Txn, in []txn.Edge) bool {
	for _, e := range in {
		if e.To == p {
			return true
		}
	}
	return false
}

// sourceOf tells whether p is a source of c.
func sourceOf(p, c *txn.Txn) bool {
	for _, e := range c.In {
		if heir(e.To) == p {
			return true
		}
	}
	return false
}

// redirectOut points n's out-edges to merged transactions at their
// heirs, dropping those that become loops on n. strict, before the first
// cycle is listed, keeps them real: an edge into a merged chain's
// transaction becomes a program-order edge into its heir's begin if n is
// of the heir's thread, and goes otherwise (n is a source of the heir
// already: chainNext).
func redirectOut(n *txn.Txn, edges []txn.Edge, strict bool) []txn.Edge {
	k := 0
	for _, e := range edges {
		if h := heir(e.To); h != e.To {
			if strict && h.Thread != n.Thread {
				continue
			}
			if e.To = h; strict {
				e.At = h.Begin
			}
		}
		if e.To != n {
			edges[k] = e
			k++
		}
	}
	clear(edges[k:])
	return edges[:k]
}

// redirectIn does the same for n's in-edges: one from a component's
// member comes from the representative (which took the member's
// out-edges), and one from a chain's merged transaction goes: its heir
// took the merged one's place as a source of the heir's own successor
// only; every other successor is a later transaction of its thread
// (chainNext), reached from the heir along program order.
func redirectIn(n *txn.Txn, edges []txn.Edge) []txn.Edge {
	k := 0
	for _, e := range edges {
		if h := heir(e.To); h != e.To {
			if chainMerged(e.To) {
				continue
			}
			e.To = h
		}
		if e.To != n {
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
	for _, records := range [][]txn.Var{m.vars, m.readRels, m.posts} {
		for i := range records {
			v := &records[i]
			rename(&v.W)
			rename(&v.R0)
			for j := range v.Rest {
				rename(&v.Rest[j].Src)
			}
		}
	}
	for i := range m.locks {
		rename(&m.locks[i])
	}
	m.eachTokenRecord(rename)
}

// rename points s, if it names a merged transaction, at its heir.
func rename(s *txn.Src) {
	if n := s.Txn; n != nil && n.Merged && !s.Stale() {
		r := heir(n)
		s.Txn, s.Line = r, max(s.Line, r.Begin)
	}
}
