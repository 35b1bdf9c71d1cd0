package monitor

import "slices"

// traceVar is a variable's record: its last write and, one per thread, the
// reads since that write, each with its thread (which liveOf reads
// to rule out a record without visiting its node). It is one cache line:
// the first read lives in the record (most variables have at most one
// reader between writes), the others in rest. Invariant: r0 is empty (nil
// txn) only if rest is, and no read names a nil transaction — a garbage
// read is dropped, not recorded. (quietReads and readSources may clear
// reads they find garbage, but only for a write, which then empties the
// reads anyway.) A record may be stale (trace_garbage.go).
type traceVar struct {
	w    traceSrc
	r0   traceSrc
	wt   int32 // w's thread
	r0t  int32 // r0's thread
	rest []traceRead
}

type traceRead struct {
	traceSrc
	thread int32
}

// A read's slot: 0 is r0, 1+i is rest[i].

// find is the slot of thread t's read, or -1; ix, if not nil, indexes
// rest (readIndex).
func (v *traceVar) find(t int32, ix readIndex) int {
	if v.r0.txn == nil {
		return -1
	}
	if v.r0t == t {
		return 0
	}
	if ix != nil {
		p, ok := ix.at(t, v.rest)
		if !ok {
			p, _ = ix.at(t, v.rest)
		}
		if p < 0 {
			return -1
		}
		return 1 + p
	}
	for i := range v.rest {
		if v.rest[i].thread == t {
			return 1 + i
		}
	}
	return -1
}

// slot is the read in slot k.
func (v *traceVar) slot(k int) *traceSrc {
	if k == 0 {
		return &v.r0
	}
	return &v.rest[k-1].traceSrc
}

// readVar is v.read, v being variable id's record, with v's read index
// once it has many reads, counting the reads find looks at.
func (m *TraceMonitor) readVar(v *traceVar, id, t int32, here traceSrc) {
	m.findScans += int64(v.read(t, here, m.readIndexOf(id, v)))
}

// writeVar is v.write, v being variable id's record.
func (m *TraceMonitor) writeVar(v *traceVar, id, t int32, here traceSrc) {
	v.write(t, here)
	m.reindex(id, v)
}

// read makes here thread t's read since the last write. A garbage here
// (nil txn) drops t's earlier read instead: that read precedes here in
// program order, so it is garbage too. It returns how many reads it looked
// at to find t's. ix, if not nil, indexes rest and is kept in step.
func (v *traceVar) read(t int32, here traceSrc, ix readIndex) int {
	k := v.find(t, ix)
	scans := len(v.rest)
	switch {
	case ix != nil:
		scans = 1
	case k >= 0:
		scans = k
	}
	switch {
	case k < 0:
		if here.txn != nil {
			v.add(t, here, ix)
		}
	case here.txn == nil:
		v.remove(k, ix)
	default:
		// A transaction's first read of v stays its witness; a read by a
		// recycled node's earlier transaction is stale.
		if r := v.slot(k); r.txn != here.txn || r.line < here.txn.begin {
			*r = here
		}
	}
	return scans
}

// write makes here, an event of thread t, the last write; the reads since
// the last one go.
func (v *traceVar) write(t int32, here traceSrc) {
	v.w, v.wt, v.r0 = here, t, traceSrc{}
	if len(v.rest) > 0 {
		clear(v.rest)
		v.rest = v.rest[:0]
	}
}

// add records thread t's read here, t having none.
func (v *traceVar) add(t int32, here traceSrc, ix readIndex) {
	if v.r0.txn == nil {
		v.r0, v.r0t = here, t
		return
	}
	if ix != nil {
		ix[t] = int32(len(v.rest))
	}
	v.rest = append(v.rest, traceRead{here, t})
}

// remove drops the read in slot k, moving the last read into its place.
func (v *traceVar) remove(k int, ix readIndex) {
	n := len(v.rest)
	if n == 0 {
		v.r0 = traceSrc{}
		return
	}
	last := v.rest[n-1]
	if ix != nil {
		delete(ix, last.thread)
	}
	if k == 0 {
		v.r0, v.r0t = last.traceSrc, last.thread
	} else if k < n {
		if ix != nil {
			delete(ix, v.rest[k-1].thread)
			ix[last.thread] = int32(k - 1)
		}
		v.rest[k-1] = last
	}
	v.rest[n-1] = traceRead{}
	v.rest = v.rest[:n-1]
}

// eachRead calls f on every read since the last write.
func (v *traceVar) eachRead(f func(traceSrc)) {
	if v.r0.txn == nil {
		return
	}
	f(v.r0)
	for _, r := range v.rest {
		f(r.traceSrc)
	}
}

// roomy grows rest, if more than half full, to twice its capacity.
func (v *traceVar) roomy() {
	if c := cap(v.rest); c > 0 && 2*len(v.rest) > c {
		v.rest = slices.Grow(v.rest, c)
	}
}
