package monitor

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
	if cur == nil || th.last.txn != cur || len(th.pending) > 0 {
		m.accessLinked(th, v, t, id, line, write)
		return
	}
	if w := v.w.txn; w != nil && w != cur && m.liveOf(&v.w, v.wt) {
		m.accessLinked(th, v, t, id, line, write)
		return
	}
	here := traceSrc{cur, line}
	r0 := &v.r0
	switch {
	case write:
		if v.readByOthers(cur) && !m.quietReads(v, cur) {
			m.accessLinked(th, v, t, id, line, write)
			return
		}
		m.writeVar(v, id, t, here)
	case r0.txn == nil:
		v.r0, v.r0t = here, t
	case v.r0t == t:
		if r0.txn != cur || r0.line < cur.begin {
			*r0 = here // see traceVar.read
		}
	case len(v.rest) == 0 && !m.liveOf(r0, v.r0t):
		v.r0, v.r0t = here, t // another thread's read, dead: take its place
	default:
		if len(v.rest) == cap(v.rest) {
			m.pruneReads(v, id) // before rest grows: amortised over its appends
		}
		m.readVar(v, id, t, here)
	}
	th.last.line = line
}

// readByOthers tells whether v has reads since its last write that are
// not all cur's first one (small, so that access keeps it inline).
func (v *traceVar) readByOthers(cur *traceTxn) bool {
	return v.r0.txn != nil && v.r0.txn != cur || len(v.rest) > 0
}

// quietReads tells whether a write by the open transaction cur finds no
// live source in v's reads: each is cur's, stale or garbage. It forgets
// the reads it finds dead; forgetting r0 breaks traceVar's invariant only
// until the write that follows empties the reads.
func (m *TraceMonitor) quietReads(v *traceVar, cur *traceTxn) bool {
	if v.r0.txn != cur && m.liveOf(&v.r0, v.r0t) {
		return false
	}
	for i := range v.rest {
		if r := &v.rest[i]; r.txn != cur && m.liveOf(&r.traceSrc, r.thread) {
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
func (m *TraceMonitor) pruneReads(v *traceVar, id int32) {
	defer m.reindex(id, v)
	defer v.roomy()
	m.readScans += int64(len(v.rest))
	k := 0
	for i := range v.rest {
		if r := &v.rest[i]; m.liveOf(&r.traceSrc, r.thread) {
			v.rest[k] = *r
			k++
		}
	}
	clear(v.rest[k:])
	v.rest = v.rest[:k]
	if !m.liveOf(&v.r0, v.r0t) {
		v.r0 = traceSrc{}
		if k > 0 {
			v.r0, v.r0t = v.rest[k-1].traceSrc, v.rest[k-1].thread
			v.rest[k-1] = traceRead{}
			v.rest = v.rest[:k-1]
		}
	}
}

// accessLinked is access in general: the event may bring sources, and
// outside a transaction it is a unary one, which gets a node only if some
// source is live. Most such accesses find every source garbage, so this
// path allocates nothing and touches only the thread's and the variable's
// records.
func (m *TraceMonitor) accessLinked(th *traceThread, v *traceVar, t, id int32, line int64, write bool) {
	cur := th.cur
	srcs := m.threadSources(th, cur)
	if v.w.txn != cur && m.liveOf(&v.w, v.wt) {
		srcs = append(srcs, v.w)
	}
	if write { // quietReads and liveOf may have cleared some reads: readSources skips them
		srcs = m.readSources(srcs, v, cur)
	}
	x := m.attach(cur, srcs, t, line)
	if write {
		m.writeVar(v, id, t, traceSrc{x, line})
	} else {
		m.readVar(v, id, t, traceSrc{x, line})
	}
	m.settle(th, cur, x, line)
}

// readSources adds v's live reads since its last write, other than x's.
func (m *TraceMonitor) readSources(srcs []traceSrc, v *traceVar, x *traceTxn) []traceSrc {
	if r := &v.r0; r.txn != x && m.liveOf(r, v.r0t) {
		srcs = append(srcs, *r)
	}
	for i := range v.rest {
		if r := &v.rest[i]; r.txn != x && m.liveOf(&r.traceSrc, r.thread) {
			srcs = append(srcs, r.traceSrc)
		}
	}
	return srcs
}
