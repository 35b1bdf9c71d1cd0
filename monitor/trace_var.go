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

// find is the slot of thread t's read, or -1.
func (v *traceVar) find(t int32) int {
	if v.r0.txn == nil {
		return -1
	}
	if v.r0t == t {
		return 0
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

// read makes here thread t's read since the last write. A garbage here
// (nil txn) drops t's earlier read instead: that read precedes here in
// program order, so it is garbage too.
func (v *traceVar) read(t int32, here traceSrc) {
	k := v.find(t)
	switch {
	case k < 0:
		if here.txn != nil {
			v.add(t, here)
		}
	case here.txn == nil:
		v.remove(k)
	default:
		// A transaction's first read of v stays its witness; a read by a
		// recycled node's earlier transaction is stale.
		if r := v.slot(k); r.txn != here.txn || r.line < here.txn.begin {
			*r = here
		}
	}
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
func (v *traceVar) add(t int32, here traceSrc) {
	if v.r0.txn == nil {
		v.r0, v.r0t = here, t
		return
	}
	v.rest = append(v.rest, traceRead{here, t})
}

// remove drops the read in slot k, moving the last read into its place.
func (v *traceVar) remove(k int) {
	n := len(v.rest)
	switch {
	case n == 0:
		v.r0 = traceSrc{}
		return
	case k == 0:
		v.r0, v.r0t = v.rest[n-1].traceSrc, v.rest[n-1].thread
	default:
		v.rest[k-1] = v.rest[n-1]
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
