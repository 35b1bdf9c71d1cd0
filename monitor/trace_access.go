package monitor

// access is Step for a read (write false) or write of variable id by
// thread t (whose record is th) at line. Nearly every access lies inside a
// transaction and meets no live source of another one: then only the
// records change, on a path that calls nothing it cannot inline.
func (m *TraceMonitor) access(th *traceThread, t, id int32, line int64, write bool) {
	if int(id) >= len(m.vars) {
		m.vars = grow(m.vars, id)
	}
	v := &m.vars[id]
	cur := th.cur
	if cur == nil || th.last.txn != cur || len(th.pending) > 0 || !v.quiet(cur, write) {
		m.accessLinked(th, v, t, id, line, write)
		return
	}
	here := traceSrc{cur, line}
	if write {
		v.write(here)
	} else {
		v.read(t, here)
	}
	cur.touch(id)
	th.last.line = line
}

// accessLinked is access in general: the event may bring sources, and
// outside a transaction it is a unary one, which gets a node only if some
// source is live. Most such accesses find every source garbage, so this
// path allocates nothing and touches only the thread's and the variable's
// records.
func (m *TraceMonitor) accessLinked(th *traceThread, v *traceVar, t, id int32, line int64, write bool) {
	cur := th.cur
	srcs := m.threadSources(th, cur)
	if v.w.txn != cur && v.w.txn != nil && m.live(&v.w) {
		srcs = append(srcs, v.w)
	}
	if write && v.r0.txn != nil {
		srcs = m.readSources(srcs, v, cur)
	}
	m.keepScratch(srcs)
	x := m.attach(cur, len(srcs), t, line)
	unary := cur == nil && x != nil
	here := traceSrc{x, line}
	if write {
		v.write(here)
	} else {
		v.read(t, here)
	}
	if cur != nil {
		cur.touch(id)
	}
	th.last, th.sawEvent = here, true
	if unary {
		m.complete(x, line)
	}
}

// readSources adds v's live reads since its last write, other than x's.
func (m *TraceMonitor) readSources(srcs []traceSrc, v *traceVar, x *traceTxn) []traceSrc {
	if r := &v.r0.traceSrc; r.txn != x && m.live(r) {
		srcs = append(srcs, *r)
	}
	for i := range v.rest {
		if r := &v.rest[i].traceSrc; r.txn != x && m.live(r) {
			srcs = append(srcs, *r)
		}
	}
	return srcs
}
