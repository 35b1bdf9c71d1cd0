package monitor

import "github.com/conc-dev/conc/monitor/internal/txn"

// Garbage. A completed transaction that no open transaction reaches lies
// on no future cycle (its in-edges are final), so edges from it are
// useless, and its node is recycled at once: when it completes, or when
// the last open transaction that reached it completes (dropSlot), or else
// at the next collection. The records that name it are not cleared then;
// two rules tell that they are dead without a pass over them:
//
//   - A record names a transaction by node and the line of one of its
//     events, and a node's begin is the line of its transaction's first
//     event. Lines increase along the trace and a recycled node begins a
//     later transaction, so a record whose line is before its node's begin
//     is stale (live, keepLive). A free node's begin is past every line.
//   - A thread's transactions are ordered, and whoever reaches an earlier
//     one reaches the later ones, so once one is garbage every earlier
//     event of its thread is too: a record older than traceThread.gone is
//     dead without a visit to its node, which is usually cold (liveOf).
//
// Clearing the records instead, when a transaction completes, costs a pass
// over everything it touched; most transactions are garbage, and most of
// their records are overwritten before anybody reads them again.

// live tells whether the record s names a transaction a new edge from which
// can matter, forgetting it (s.txn = nil) if not. A completed one that no
// open transaction reaches is garbage: while every open transaction has a
// slot, "reached by none" is mask == 0 (the reachability bits' invariant);
// otherwise garbage is left to collect.
func (m *TraceMonitor) live(s *txn.Src) bool {
	n := s.Txn
	if n == nil {
		return false
	}
	if s.Stale() || !n.Open && m.garbage(n) {
		s.Txn = nil
		return false
	}
	return true
}

// liveOf is live for a record of a transaction of thread t. A thread's
// transactions are ordered (program order), so when one completes as
// garbage every earlier one of its thread is garbage too: whoever reached
// an earlier one would reach it. A record older than the thread's latest
// transaction known as garbage (traceThread.gone) is ruled out without a
// visit to its node, which is usually cold.
func (m *TraceMonitor) liveOf(s *txn.Src, t int32) bool {
	if s.Txn == nil {
		return false
	}
	if s.Line < m.threads[t].gone {
		s.Txn = nil
		return false
	}
	return m.live(s)
}

// releaseGarbage hands x, completed and garbage, back to the arena at once
// instead of at the next collection, so the next transaction reuses a node
// still in cache and collections come rarer. Pointers to x must
// not survive, but for records (stale from now on) and for those in its
// sources' out-lists: its sources are garbage too (an ancestor of garbage
// is), and no search or collection walks out of garbage. Pointers in
// in-lists of its own successors would be walked, so they are taken out
// first (unlinkOut; an x with a successor of many in-edges waits for the
// collection instead). Nor may x lie in a component (whose members find
// their representative through it).
func (m *TraceMonitor) releaseGarbage(x *txn.Txn) {
	if x.Cyclic || x.SCC != nil || x.Size > 0 || x.Viol != txn.NoViolation {
		return
	}
	if len(x.Out) > 0 && !unlinkOut(x) {
		return
	}
	last := m.nodes[len(m.nodes)-1]
	m.nodes[x.Pos], last.Pos = last, x.Pos
	m.nodes[len(m.nodes)-1] = nil
	m.nodes = m.nodes[:len(m.nodes)-1]
	x.Dead = true
	m.arena.Release(x)
}

// becameGarbage lets go of n, completed and reached by no open transaction
// (just now, or since the last one that did completed): every earlier event
// of its thread is garbage too.
func (m *TraceMonitor) becameGarbage(n *txn.Txn) {
	th := &m.threads[n.Thread]
	th.gone = max(th.gone, n.End+1)
	m.releaseGarbage(n)
}

// maxUnlink bounds the in-lists unlinkOut scans, so that releasing a
// transaction never costs a pass over a long-lived one's in-edges.
const maxUnlink = 8

// unlinkOut removes x's edges from its successors' in-lists, unless one of
// them is longer than maxUnlink; it tells whether it did. With lock edges
// most transactions leave an edge to the lock's next acquirer, and x is
// garbage, so the edge can matter to no search: released at once, x's
// node is reused while still in cache instead of waiting for a collection.
func unlinkOut(x *txn.Txn) bool {
	for _, e := range x.Out {
		if len(e.To.In) > maxUnlink {
			return false
		}
	}
	for _, e := range x.Out {
		in := e.To.In
		k := 0
		for _, f := range in {
			if f.To != x {
				in[k] = f
				k++
			}
		}
		clear(in[k:])
		e.To.In = in[:k]
	}
	return true
}

// garbage tells whether x, if completed, is garbage for sure: while every
// open transaction has a slot, mask == 0 means none reaches it.
func (m *TraceMonitor) garbage(x *txn.Txn) bool { return x.Mask == 0 && m.unslotted == 0 }
