package monitor

// traceVar is a variable's record: its last write and, one per thread, the
// reads since that write. It is one cache line: the first read lives in
// the record (most variables have at most one reader between writes), the
// others in rest. Invariant: r0 is empty (nil txn) only if rest is, and no
// read names a nil transaction — a garbage read is dropped, not recorded.
// (quietReads and readSources may clear reads they find garbage, but only for
// a write, which then empties the reads anyway.) A read may be stale
// (trace_garbage.go).
type traceVar struct {
	w    traceSrc
	r0   traceRead
	rest []traceRead
}

type traceRead struct {
	traceSrc
	thread int32
}

// read makes here thread t's read since the last write. A garbage here
// (nil txn) drops t's earlier read instead: that read precedes here in
// program order, so it is garbage too.
func (v *traceVar) read(t int32, here traceSrc) {
	r := v.readOf(t)
	switch {
	case r == nil:
		if here.txn != nil {
			v.add(traceRead{here, t})
		}
	case here.txn == nil:
		v.drop(r)
	case r.txn != here.txn || r.line < here.txn.begin:
		r.traceSrc = here // a transaction's first read of v stays its witness
		// (one of a recycled node's earlier transaction is stale)
	}
}

// write makes here the last write; the reads since the last one go.
func (v *traceVar) write(here traceSrc) {
	v.w, v.r0 = here, traceRead{}
	if len(v.rest) > 0 {
		clear(v.rest)
		v.rest = v.rest[:0]
	}
}

func (v *traceVar) readOf(t int32) *traceRead {
	if v.r0.txn == nil {
		return nil
	}
	if v.r0.thread == t {
		return &v.r0
	}
	for i := range v.rest {
		if v.rest[i].thread == t {
			return &v.rest[i]
		}
	}
	return nil
}

func (v *traceVar) add(r traceRead) {
	if v.r0.txn == nil {
		v.r0 = r
		return
	}
	v.rest = append(v.rest, r)
}

// drop removes the read r points at, moving the last read into its place.
func (v *traceVar) drop(r *traceRead) {
	k := len(v.rest)
	if k == 0 {
		v.r0 = traceRead{}
		return
	}
	*r = v.rest[k-1]
	v.rest[k-1] = traceRead{}
	v.rest = v.rest[:k-1]
}

// keepReads keeps the reads for which keep is true (collection's sweep),
// compacting in place: each kept read moves to a place already read.
func (v *traceVar) keepReads(keep func(traceSrc) bool) {
	r0, rest := v.r0, v.rest
	v.r0, v.rest = traceRead{}, rest[:0]
	if r0.txn != nil && keep(r0.traceSrc) {
		v.add(r0)
	}
	for _, r := range rest {
		if r.txn != nil && keep(r.traceSrc) {
			v.add(r)
		}
	}
	clear(rest[len(v.rest):])
}

// eachRead calls f on every read since the last write.
func (v *traceVar) eachRead(f func(traceSrc)) {
	if v.r0.txn == nil {
		return
	}
	f(v.r0.traceSrc)
	for _, r := range v.rest {
		f(r.traceSrc)
	}
}
