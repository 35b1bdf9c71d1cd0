package txn

// ReadIndexMin is how many reads (in rest) a variable has since its last
// write before its reads are indexed by thread: below it, a scan of rest
// is cheaper than a map.
const ReadIndexMin = 32

// ReadIndex is, for a variable read by many threads since its last write,
// each reader's position in the record's rest: without it, n threads
// reading one variable cost n²/2 steps of Var.find. It cannot live in
// Var, which is one cache line, so TraceMonitor keeps it by variable.
// It is kept in step with rest by every change of the reads (Var.add
// and remove, pruneReads, writeVar), and it is trusted only as far as it
// checks: a position is used only if rest holds t's read there, and an
// index of a size other than rest's is rebuilt.
type ReadIndex map[int32]int32

// Rebuild makes ix index rest.
func (ix ReadIndex) Rebuild(rest []Read) {
	clear(ix)
	for i, r := range rest {
		ix[r.Thread] = int32(i)
	}
}

// At is the position of thread t's read in rest, or -1; ok is false if
// ix is out of step with rest (and rebuilt: look again).
func (ix ReadIndex) At(t int32, rest []Read) (pos int, ok bool) {
	p, found := ix[t]
	switch {
	case !found:
		return -1, true
	case int(p) < len(rest) && rest[p].Thread == t:
		return int(p), true
	}
	ix.Rebuild(rest)
	return -1, false
}
