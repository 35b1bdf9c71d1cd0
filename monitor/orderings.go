package monitor

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/internal/txn"
)

// The ordering extension (docs/spec.md §3) under lock edges: a read
// acquire follows the lock's last release, as an acquire does; a write
// acquire follows, besides, every read release since the lock's previous
// write acquire; a wait follows every post of its message; a take
// follows the give it takes, the oldest not yet taken (txn.Tokens). The read
// releases of a lock and the posts of a message are kept as a variable's
// reads are, one per thread (txn.Var; a thread's earlier ones reach its
// latest by program order), and renamed and collected with them.

// orderingEvent steps an event of the extension, with lock edges.
func (m *TraceMonitor) orderingEvent(th *traceThread, t int32, ev model.Op, target int32, line int64) {
	switch ev {
	case model.OpReadAcquire:
		m.lockEvent(th, t, target, line, false)
	case model.OpReadRelease:
		m.recorded(th, t, line, nil, &m.readRels[growTo(&m.readRels, target)])
	case model.OpPost:
		m.recorded(th, t, line, nil, &m.posts[growTo(&m.posts, target)])
	case model.OpWait:
		m.recorded(th, t, line, &m.posts[growTo(&m.posts, target)], nil)
	case model.OpGive, model.OpTake:
		m.tokenEvent(th, t, target, line, ev == model.OpTake)
	}
}

// tokenEvent is a give (queued) or a take (after the oldest give not yet
// taken) of token s.
func (m *TraceMonitor) tokenEvent(th *traceThread, t, s int32, line int64, take bool) {
	if int(s) >= len(m.tokens) {
		m.tokens = grow(m.tokens, s)
	}
	q := &m.tokens[s]
	cur := th.cur
	srcs := m.threadSources(th, cur)
	if take {
		if g, ok := q.Take(); ok && g.Txn != nil && g.Txn != cur && m.live(&g) {
			srcs = append(srcs, g)
		}
	}
	x := m.attach(cur, srcs, t, line)
	if !take {
		q.Give(txn.Src{Txn: x, Line: line})
	}
	m.settle(th, cur, x, line)
}

// eachTokenRecord calls f on every give not yet taken.
func (m *TraceMonitor) eachTokenRecord(f func(*txn.Src)) {
	for i := range m.tokens {
		m.tokens[i].Each(f)
	}
}

// writeAcquire is an acquire of lock l, with lock edges: after its last
// release and its read releases since its previous acquire, which this
// one then stands for.
func (m *TraceMonitor) writeAcquire(th *traceThread, t, l int32, line int64) {
	if int(l) >= len(m.readRels) || m.readRels[l].R0.Txn == nil {
		m.lockEvent(th, t, l, line, false)
		return
	}
	cur := th.cur
	srcs := m.threadSources(th, cur)
	if lk := m.lockRef(l); lk.Txn != cur && lk.Txn != nil && m.live(lk) {
		srcs = append(srcs, *lk)
	}
	rels := &m.readRels[l]
	srcs = m.liveRecords(srcs, rels, cur)
	rels.Write(t, txn.Src{}) // forget them: this acquire's transaction reaches each
	x := m.attach(cur, srcs, t, line)
	m.settle(th, cur, x, line)
}

// recorded is an event of thread t after the records in from (nil:
// none), which becomes t's record in into (nil: none).
func (m *TraceMonitor) recorded(th *traceThread, t int32, line int64, from, into *txn.Var) {
	cur := th.cur
	srcs := m.threadSources(th, cur)
	if from != nil {
		srcs = m.liveRecords(srcs, from, cur)
	}
	x := m.attach(cur, srcs, t, line)
	if into != nil {
		into.Read(t, txn.Src{Txn: x, Line: line}, nil)
	}
	m.settle(th, cur, x, line)
}

// liveRecords appends to srcs the live records of v outside cur.
func (m *TraceMonitor) liveRecords(srcs []txn.Src, v *txn.Var, cur *txn.Txn) []txn.Src {
	v.EachRead(func(s txn.Src) {
		if s.Txn != cur && m.live(&s) {
			srcs = append(srcs, s)
		}
	})
	return srcs
}

// growTo makes (*records)[i] exist and returns i.
func growTo(records *[]txn.Var, i int32) int32 {
	if int(i) >= len(*records) {
		*records = grow(*records, i)
	}
	return i
}
