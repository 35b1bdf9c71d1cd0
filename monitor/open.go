package monitor

import "math"

// The threads with an open transaction, in a list by their transaction's
// begin: begins come in trace order, so a thread that opens one joins at
// the tail, and one that closes it leaves from wherever it is, both in
// constant time. The head's begin is where the lazy atomicity tracker's
// window may start (OldestOpen).

// opened puts thread t (th), which just began a transaction, at the tail.
func (m *TraceMonitor) opened(th *traceThread, t int32) {
	th.openPrev, th.openNext = m.openTail, 0
	if m.openTail != 0 {
		m.threads[m.openTail-1].openNext = t + 1
	} else {
		m.openHead = t + 1
	}
	m.openTail = t + 1
}

// closed takes th, whose transaction just ended, out of the list.
func (m *TraceMonitor) closed(th *traceThread) {
	if th.openPrev != 0 {
		m.threads[th.openPrev-1].openNext = th.openNext
	} else {
		m.openHead = th.openNext
	}
	if th.openNext != 0 {
		m.threads[th.openNext-1].openPrev = th.openPrev
	} else {
		m.openTail = th.openPrev
	}
}

// OldestOpen is the begin line of the oldest open transaction, past
// every line (math.MaxInt64) if none is open. No event before it knows of
// a transaction open now, so the pass over a trace (monitor/pass) keeps
// only the events from it on until its atomicity tracker must start.
func (m *TraceMonitor) OldestOpen() int64 {
	if m.openHead == 0 {
		return math.MaxInt64
	}
	return m.threads[m.openHead-1].cur.Begin
}
