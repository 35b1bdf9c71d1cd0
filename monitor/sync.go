package monitor

import "github.com/conc-dev/conc/monitor/internal/txn"

// Step's work for begin, end, acquire and release, each specialised as
// access is for reads and writes; event keeps the general form for forks
// and joins.

// begin opens a transaction of thread t: its sources are the thread's
// previous transaction and pending forks.
func (m *TraceMonitor) begin(th *traceThread, t int32, line int64) {
	x := m.newTxn(th, t, line, true)
	m.opened(th, t)
	if len(th.pending) > 0 || m.live(&th.last) { // else no source
		if srcs := m.threadSources(th, x); len(srcs) > 0 {
			m.addEdges(x, srcs, line)
		}
	}
	th.last, th.sawEvent = txn.Src{Txn: x, Line: line}, true
}

// end completes th's open transaction.
func (m *TraceMonitor) end(th *traceThread, line int64) {
	x := th.cur
	// On input the reader accepts, the begin took the pending forks and
	// every event since made x th.last, so there is no source; Step's
	// other callers may break that order, and still get every edge.
	if len(th.pending) > 0 || th.last.Txn != x {
		if srcs := m.threadSources(th, x); len(srcs) > 0 {
			m.addEdges(x, srcs, line)
		}
	}
	th.last, th.sawEvent = txn.Src{Txn: x, Line: line}, true
	th.cur = nil
	m.closed(th)
	if x.Slot < 0 {
		m.unslotted--
	}
	m.complete(x, line)
}

// lockEvent is an acquire (after the lock's last release) or a release
// (which becomes the last) of lock l by thread t, with lock edges.
func (m *TraceMonitor) lockEvent(th *traceThread, t, l int32, line int64, release bool) {
	lk := m.lockRef(l)
	cur := th.cur
	// The commonest case, as in access: inside a transaction, no source
	// in another one.
	if cur != nil && th.last.Txn == cur && len(th.pending) == 0 {
		if release || lk.Txn == cur || !m.live(lk) {
			if release {
				*lk = txn.Src{Txn: cur, Line: line}
			}
			th.last.Line = line
			return
		}
	}
	srcs := m.threadSources(th, cur)
	if !release && lk.Txn != cur && lk.Txn != nil && m.live(lk) {
		srcs = append(srcs, *lk)
	}
	x := m.attach(cur, srcs, t, line)
	if release {
		*lk = txn.Src{Txn: x, Line: line}
	}
	m.settle(th, cur, x, line)
}

// forkJoin is a fork or join of thread u by thread t: u's latest event
// precedes it, and a fork precedes u's next event (pending until then). A
// join has no such record: u has no event after it (the reader rejects
// one), and a pending record nobody consumes would keep t's transaction
// alive through every collection.
func (m *TraceMonitor) forkJoin(t, u int32, line int64, join bool) {
	ut := m.thread(u)
	th := &m.threads[t] // m.thread may have moved the slice
	cur := th.cur
	srcs := m.threadSources(th, cur)
	if ut.sawEvent && ut.last.Txn != cur && ut.last.Txn != nil && m.live(&ut.last) {
		srcs = append(srcs, ut.last)
	}
	x := m.attach(cur, srcs, t, line)
	if !join {
		ut.pending = append(ut.pending, txn.Src{Txn: x, Line: line})
	}
	m.settle(th, cur, x, line)
}
