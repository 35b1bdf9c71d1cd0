package monitor

import "github.com/conc-dev/conc/monitor/internal/txn"

// Absorption. An event outside any transaction is a unary transaction:
// one event, never broken (no other event can come between its begin and
// its end). With TraceOptions.CountBlocks the count of transactions on a
// cycle counts atomic blocks only, and then a unary event u of thread t
// that brings no new source joins t's previous node p instead of getting
// one of its own, when p is unary too (a run of t's unary events, all
// complete) and every live source of u is p (program order) or a source
// of p by an edge of p's own. jgf-crypt's workers read a hundred
// thousand array elements that the main thread wrote, one unary read
// each, and every element's record names its reader: without absorption
// each read is a node that no rule may let go.
//
// Why the graph stays exact. u's sources are p and some of p's sources,
// so whoever reaches u reaches p or is p; and p reaches u along program
// order, so whatever u reaches, now or later, p reaches. A path through
// the merged node (p ∪ u) is then a path of the conflict graph: entering
// it means reaching p, leaving it means leaving p or u, and p → u. So a
// transaction reaches another in the contracted graph iff it does in the
// conflict graph, every cycle closes at the same event (an edge u → w
// closes one iff w reaches u, iff w reaches p: p → u → w and whoever
// reaches u reaches p), and the merged node is on a cycle iff p is.
// Whether u itself lies on one is lost, which CountBlocks does not ask.
//
// Listing stays real: every in-edge of a run enters its first event
// (absorption adds none, and a complete node takes none), so a listed
// cycle enters a run at its first event and leaves it at the same or a
// later one of its events, each a unary transaction of its own, in
// program order (runBegin names them).

// absorb is the node the unary event of thread t with the live sources
// srcs joins, or nil if it needs its own.
func (m *TraceMonitor) absorb(t int32, srcs []txn.Src) *txn.Txn {
	if !m.opts.CountBlocks || !m.chains() {
		return nil
	}
	p := m.threads[t].last.Txn
	if p == nil || !p.Unary || p.Open || p.Dead || len(p.In) > maxChainScan {
		return nil
	}
	// p is among srcs unless it is garbage, and then so are its sources,
	// and u, with none: it joins p all the same.
	for _, s := range srcs {
		if s.Txn != p && !ownSource(s.Txn, p.In) {
			return nil
		}
	}
	m.stats.Absorbed++
	return p
}

// runBegin is the begin of the transaction of n's event at line: n's
// own, or, for a run of unary events, the event's (each is a transaction
// of its own).
func runBegin(n *txn.Txn, line int64) int64 {
	if n.Unary {
		return line
	}
	return n.Begin
}

// blocks is how many atomic blocks n counts for on a cycle besides those
// merged into it: 1, or none for a unary one when only blocks are counted.
func (m *TraceMonitor) blocks(n *txn.Txn) int32 {
	if n.Unary && m.opts.CountBlocks {
		return 0
	}
	return 1
}
