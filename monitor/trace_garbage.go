package monitor

// Garbage. A completed transaction that no open transaction reaches lies
// on no future cycle (its in-edges are final), so edges from it are
// useless: live drops them and clears the records that name it when it
// meets them. Most transactions are garbage the moment they complete, and
// a record met later costs a cache miss on a node long gone cold; so a
// begin/end transaction keeps the few variables and locks it touched, and
// on completing as garbage clears their records itself, while they are
// still in cache.

// maxTouched is how many variables and locks a transaction lists for
// forgetGarbage; beyond that the records are left to live.
const maxTouched = len(traceTxn{}.touched)

// touchedOverflow is ntouched's flag: some records x names are not listed.
const touchedOverflow = 0x80

// touch lists record id (a variable, or -1-l for lock l) as touched by x.
func (x *traceTxn) touch(id int32) {
	k := int(x.ntouched &^ touchedOverflow)
	switch {
	case k > 0 && x.touched[k-1] == id:
	case k < maxTouched:
		x.touched[k] = id
		x.ntouched++
	default:
		x.ntouched |= touchedOverflow // some records not listed
	}
}

// forgetGarbage clears the records that name x, if x has just completed
// as garbage: no open transaction reaches it (mask == 0, with every open
// transaction holding a slot). It tells whether it cleared every one.
func (m *TraceMonitor) forgetGarbage(x *traceTxn) bool {
	if x.mask != 0 || m.unslotted != 0 || x.ntouched == 0 {
		return false
	}
	if th := &m.threads[x.thread]; th.last.txn == x {
		th.last.txn = nil
	}
	for _, id := range x.touched[:x.ntouched&^touchedOverflow] {
		if id < 0 {
			if l := &m.locks[-1-id]; l.txn == x {
				l.txn = nil
			}
			continue
		}
		v := &m.vars[id]
		if v.w.txn == x {
			v.w.txn = nil
		}
		if r := v.readOf(x.thread); r != nil && r.txn == x {
			v.drop(r)
		}
	}
	return x.ntouched&touchedOverflow == 0
}

// releaseGarbage hands x, garbage and named by no record, back to the
// arena at once instead of at the next collection, so the next
// transaction reuses a node still in cache and collections come rarer.
// Pointers to x must not survive: those in its sources' out-lists do,
// but its sources are garbage too (an ancestor of garbage is), and no
// search or collection walks out of garbage. Pointers in in-lists of its
// own successors would be walked, so x must have none (an x with
// out-edges waits for the collection), nor lie in a component (whose
// members find their representative through it).
func (m *TraceMonitor) releaseGarbage(x *traceTxn) {
	if len(x.out) > 0 || x.cyclic || x.scc != nil || x.size > 0 || x.viol != nil {
		return
	}
	last := m.nodes[len(m.nodes)-1]
	m.nodes[x.pos], last.pos = last, x.pos
	m.nodes[len(m.nodes)-1] = nil
	m.nodes = m.nodes[:len(m.nodes)-1]
	x.dead = true
	m.arena.release(x)
}
