package monitor

import "github.com/conc-dev/conc/monitor/internal/txn"

// access is Step for a read (write false) or write of variable id by
// thread t (whose record is th) at line. Nearly every access lies inside a
// transaction and meets no live source of another one: then only the
// records change, and the common cases of that are written out here, with
// no call (Go saves no register across one, and this runs for half of
// every trace's events).
func (m *TraceMonitor) access(th *traceThread, t, id int32, line int64, write bool) {
	if int(id) >= len(m.vars) {
		m.vars = grow(m.vars, id)
	}
	v := &m.vars[id]
	cur := th.cur
	if cur == nil || th.last.Txn != cur || len(th.pending) > 0 {
		m.accessLinked(th, v, t, id, line, write)
		return
	}
	if w := v.W.Txn; w != nil && w != cur && m.liveOf(&v.W, v.WT) {
		m.accessLinked(th, v, t, id, line, write)
		return
	}
	here := txn.Src{Txn: cur, Line: line}
	r0 := &v.R0
	switch {
	case write:
		if v.ReadByOthers(cur) && !m.quietReads(v, cur) {
			m.accessLinked(th, v, t, id, line, write)
			return
		}
		m.writeVar(v, id, t, here)
	case r0.Txn == nil:
		v.R0, v.R0T = here, t
	case v.R0T == t:
		if r0.Txn != cur || r0.Line < cur.Begin {
			*r0 = here // see txn.Var.Read
		}
	case len(v.Rest) == 0 && !m.liveOf(r0, v.R0T):
		v.R0, v.R0T = here, t // another thread's read, dead: take its place
	default:
		if len(v.Rest) == cap(v.Rest) {
			m.pruneReads(v, id) // before rest grows: amortised over its appends
		}
		m.readVar(v, id, t, here)
	}
	th.last.Line = line
}

// quietReads tells whether a write by the open transaction cur finds no
// live source in v's reads: each is cur's, stale or garbage. It forgets
// the reads it finds dead; forgetting r0 breaks txn.Var's invariant only
// until the write that follows empties the reads.
func (m *TraceMonitor) quietReads(v *txn.Var, cur *txn.Txn) bool {
	if v.R0.Txn != cur && m.liveOf(&v.R0, v.R0T) {
		return false
	}
	for i := range v.Rest {
		if r := &v.Rest[i]; r.Txn != cur && m.liveOf(&r.Src, r.Thread) {
			return false
		}
	}
	return true
}

// pruneReads drops v's reads that are stale or garbage, so that reads by
// many transactions long gone do not pile up between writes. It runs when
// rest is full, and leaves it at most half full (growing it if need be),
// so that with thousands of threads reading one variable its cost is
// amortised over the reads that fill rest again.
func (m *TraceMonitor) pruneReads(v *txn.Var, id int32) {
	defer m.reindex(id, v)
	defer v.Roomy()
	m.readScans += int64(len(v.Rest))
	k := 0
	for i := range v.Rest {
		if r := &v.Rest[i]; m.liveOf(&r.Src, r.Thread) {
			v.Rest[k] = *r
			k++
		}
	}
	clear(v.Rest[k:])
	v.Rest = v.Rest[:k]
	if !m.liveOf(&v.R0, v.R0T) {
		v.R0 = txn.Src{}
		if k > 0 {
			v.R0, v.R0T = v.Rest[k-1].Src, v.Rest[k-1].Thread
			v.Rest[k-1] = txn.Read{}
			v.Rest = v.Rest[:k-1]
		}
	}
}

// accessLinked is access in general: the event may bring sources, and
// outside a transaction it is a unary one, which gets a node only if some
// source is live. Most such accesses find every source garbage, so this
// path allocates nothing and touches only the thread's and the variable's
// records.
func (m *TraceMonitor) accessLinked(th *traceThread, v *txn.Var, t, id int32, line int64, write bool) {
	cur := th.cur
	srcs := m.threadSources(th, cur)
	if v.W.Txn != cur && m.liveOf(&v.W, v.WT) {
		srcs = append(srcs, v.W)
	}
	if write { // quietReads and liveOf may have cleared some reads: readSources skips them
		srcs = m.readSources(srcs, v, cur)
	}
	x := m.attach(cur, srcs, t, line)
	if write {
		m.writeVar(v, id, t, txn.Src{Txn: x, Line: line})
	} else {
		m.readVar(v, id, t, txn.Src{Txn: x, Line: line})
	}
	m.settle(th, cur, x, line)
}

// readSources adds v's live reads since its last write, other than x's.
func (m *TraceMonitor) readSources(srcs []txn.Src, v *txn.Var, x *txn.Txn) []txn.Src {
	if r := &v.R0; r.Txn != x && m.liveOf(r, v.R0T) {
		srcs = append(srcs, *r)
	}
	for i := range v.Rest {
		if r := &v.Rest[i]; r.Txn != x && m.liveOf(&r.Src, r.Thread) {
			srcs = append(srcs, r.Src)
		}
	}
	return srcs
}
