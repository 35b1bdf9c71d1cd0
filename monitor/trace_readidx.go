package monitor

// readIndexMin is how many reads (in rest) a variable has since its last
// write before its reads are indexed by thread: below it, a scan of rest
// is cheaper than a map.
const readIndexMin = 32

// readIndex is, for a variable read by many threads since its last write,
// each reader's position in the record's rest: without it, n threads
// reading one variable cost n²/2 steps of traceVar.find. It cannot live in
// traceVar, which is one cache line, so TraceMonitor keeps it by variable.
// It is kept in step with rest by every change of the reads (traceVar.add
// and remove, pruneReads, writeVar), and it is trusted only as far as it
// checks: a position is used only if rest holds t's read there, and an
// index of a size other than rest's is rebuilt.
type readIndex map[int32]int32

// readIndexOf is v's read index (v being variable id's record), or nil
// while v has few reads: then an index is dropped, its positions being
// soon out of date.
func (m *TraceMonitor) readIndexOf(id int32, v *traceVar) readIndex {
	if len(v.rest) < m.readIdxMin {
		if len(m.readIdx) > 0 {
			delete(m.readIdx, id)
		}
		return nil
	}
	if m.readIdx == nil {
		m.readIdx = map[int32]readIndex{}
	}
	ix := m.readIdx[id]
	if ix == nil {
		ix = make(readIndex, 2*len(v.rest))
		m.readIdx[id] = ix
	}
	if len(ix) != len(v.rest) {
		ix.rebuild(v.rest)
	}
	return ix
}

// rebuild makes ix index rest.
func (ix readIndex) rebuild(rest []traceRead) {
	clear(ix)
	for i, r := range rest {
		ix[r.thread] = int32(i)
	}
}

// at is the position of thread t's read in rest, or -1; ok is false if
// ix is out of step with rest (and rebuilt: look again).
func (ix readIndex) at(t int32, rest []traceRead) (pos int, ok bool) {
	p, found := ix[t]
	switch {
	case !found:
		return -1, true
	case int(p) < len(rest) && rest[p].thread == t:
		return int(p), true
	}
	ix.rebuild(rest)
	return -1, false
}

// reindex brings variable id's read index, if any, in step with rest after
// its reads were compacted or cleared.
func (m *TraceMonitor) reindex(id int32, v *traceVar) {
	if len(m.readIdx) == 0 {
		return
	}
	if ix := m.readIdx[id]; ix != nil {
		if len(v.rest) < m.readIdxMin {
			delete(m.readIdx, id)
			return
		}
		ix.rebuild(v.rest)
	}
}
