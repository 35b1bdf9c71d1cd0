package monitor

// access is Step for a read (write false) or write of variable id by
// thread t at line: event's work, specialised to the commonest events.
// Most accesses lie outside transactions and find every source garbage,
// so this path allocates nothing and touches only the thread's and the
// variable's records.
func (m *TraceMonitor) access(t, id int32, line int64, write bool) {
	th, v := m.thread(t), m.variable(id)
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
