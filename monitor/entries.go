package monitor

import (
	"math"
	"sort"

	"github.com/conc-dev/conc/monitor/internal/txn"
)

// Thread entries: program-order jumps for the way back from x to n
// (jumpFrom, cycleByJumps).
//
// In the conflict graph (docs/spec.md §1) every transaction of a thread has
// an edge to every later one of that thread. So a path x ⇝ n that gets
// into n's thread anywhere before n goes on to n in one program-order hop,
// and it gets there over an edge from another thread (x is the newest
// transaction of its thread, so no earlier one of n's thread): into an
// *entry*. A search backwards from n one step at a time crosses a run of
// thousands of a thread's unary reads (jgf-sor) one transaction per step,
// and its budget runs out inside the run: the listing was elided.
//
// Per pair of threads u → t the monitor keeps the edges from u into t's
// entries at which the source gets later in u's program order (entryList).
// Whoever reaches an earlier transaction of u reaches every later one, so
// of all the edges from u into t's entries before n, the last record
// before n has the source that x reaches if x reaches any: one step of the
// search, x ⇝ s → e ⇒ n, stands for the whole run, and the listing stays
// a real cycle. A record costs 32 bytes; records whose ends were recycled
// are dropped from the front (whoever reaches an earlier transaction of a
// thread reaches the later ones, so garbage goes oldest first; a record
// the collector made invalid out of turn waits, and a search that lands
// on it just finds no jump there).

// entryRec is an edge from another thread into the entry entry: edge.to
// is its source, edge.from the source's line, edge.at the entry's.
type entryRec struct {
	entry *txn.Txn
	edge  txn.Edge
}

// valid tells whether neither end of r has been collected or recycled (a
// line before its node's begin names a recycled node: garbage.go).
func (r *entryRec) valid() bool {
	src := r.edge.To
	return !r.entry.Dead && !src.Dead && r.edge.At >= r.entry.Begin && r.edge.From >= src.Begin
}

// entryList holds the records of the edges from thread from into one
// thread's entries, in trace order: by entry, and by source in from's
// program order, both increasing. recs[:head] are dropped.
type entryList struct {
	from int32
	head int
	recs []entryRec
}

// entered records the edge e (e.to the source, of another thread) into x,
// its thread's newest transaction, where its source is later in its
// thread than the last record's: an earlier source adds nothing, since
// whoever reaches it reaches the last record's too.
func (m *TraceMonitor) entered(x *txn.Txn, e txn.Edge) {
	l := m.threads[x.Thread].entryList(e.To.Thread)
	l.prune()
	if k := len(l.recs); k > l.head {
		last := &l.recs[k-1]
		if last.valid() {
			if e.To.Begin <= last.edge.To.Begin {
				return
			}
			if last.entry == x { // a later source into the same entry
				last.edge = e
				return
			}
		}
	}
	l.recs = append(l.recs, entryRec{x, e})
}

// entryList is th's list of edges from thread u, made on first use. A
// thread entered from many threads (a main thread that forks thousands)
// finds the list by an index rather than a scan.
func (th *traceThread) entryList(u int32) *entryList {
	if th.entryAt != nil {
		if i, ok := th.entryAt[u]; ok {
			return &th.entries[i]
		}
	} else {
		for i := range th.entries {
			if th.entries[i].from == u {
				return &th.entries[i]
			}
		}
	}
	th.entries = append(th.entries, entryList{from: u})
	switch k := len(th.entries); {
	case th.entryAt != nil:
		th.entryAt[u] = int32(k - 1)
	case k > entryScan:
		th.entryAt = make(map[int32]int32, k)
		for i := range th.entries {
			th.entryAt[th.entries[i].from] = int32(i)
		}
	}
	return &th.entries[len(th.entries)-1]
}

// entryScan is how many lists a thread's are scanned up to, before an index.
const entryScan = 16

// prune drops the records at the front whose ends are gone.
func (l *entryList) prune() {
	for l.head < len(l.recs) && !l.recs[l.head].valid() {
		l.recs[l.head] = entryRec{}
		l.head++
	}
	if l.head > 32 && 2*l.head > len(l.recs) {
		k := copy(l.recs, l.recs[l.head:])
		clear(l.recs[k:])
		l.recs, l.head = l.recs[:k], 0
		if cap(l.recs) > 4*k+64 { // let a list that once grew large shrink
			l.recs = append([]entryRec(nil), l.recs...)
		}
	}
}

// pruneEntries prunes every thread's lists after a collection.
func (m *TraceMonitor) pruneEntries() {
	for t := range m.threads {
		for i := range m.threads[t].entries {
			m.threads[t].entries[i].prune()
		}
	}
}

// before is the last record of an edge that came before line, or nil.
func (l *entryList) before(line int64) *entryRec {
	recs := l.recs[l.head:]
	i := sort.Search(len(recs), func(i int) bool { return recs[i].edge.At >= line }) - 1
	if i < 0 || !recs[i].valid() {
		return nil
	}
	return &recs[i]
}

// cycleByJumps lists n's cycle (n = search index j) with program-order
// jumps where the listing of cycleByBits would be elided: the way back to
// x (fw, if closed, else followed further), a path x ⇝ n by jumpFrom, and
// the closed walk cut short by jumpPO. It tells whether the cycle fits
// MaxCycle; if not, v is left to describe. The cycles that fit without
// jumps keep their listing (and so their groups): the shortest raw walk
// shows the conflicts between threads it passes, which a jump would leave
// out.
func (m *TraceMonitor) cycleByJumps(v *TraceViolation, x *txn.Txn, xb uint64, j int32, fw []walkHop, closed bool) bool {
	s := &m.search
	if !closed {
		fw, closed = s.wayBack(j, m.searchBudget())
		if !closed {
			return false
		}
	}
	bw, found := m.jumpFrom(x, xb, s.order[j], m.searchBudget())
	if !found {
		return false
	}
	walk := append(m.paths.walk[:0], fw...)
	for i := len(bw) - 1; i >= 0; i-- {
		walk = append(walk, bw[i])
	}
	walk = jumpPO(walk)
	m.paths.walk = walk
	if len(walk)-1 > m.opts.MaxCycle {
		return false
	}
	v.Cycle = listHops(walk)
	v.Out, v.In = walk[0].fromLine, walk[len(walk)-1].atLine
	return true
}

// jumpFrom is pathFrom with program-order jumps: a path x ⇝ n found by a
// breadth-first search backwards from n that expands at most budget
// transactions x reaches, a same-thread run as one hop. The path is
// scratch (pathSearch.hops), valid until the next search.
func (m *TraceMonitor) jumpFrom(x *txn.Txn, xb uint64, n *txn.Txn, budget int) ([]walkHop, bool) {
	if n == x {
		return nil, true
	}
	p := &m.paths
	p.start(n)
	for q := 0; q < len(p.queue) && q < budget; q++ {
		if m.expand(x, xb, p.queue[q]) {
			p.hops = p.path(p.hops[:0], x, n)
			return p.hops, true
		}
	}
	return nil, false
}

// expand is one step of jumpFrom's search backwards from n: per other
// thread u, the latest source in u of an edge into c or an earlier
// transaction of c's thread (then one program-order hop on to c), if x
// reaches it. That stands for every edge from u into c's thread up to c:
// x reaches one's source only if it reaches that one. It tells whether it
// found x.
func (m *TraceMonitor) expand(x *txn.Txn, xb uint64, c *txn.Txn) bool {
	p := &m.paths
	upTo := int64(math.MaxInt64) // c is open: every record so far
	if !c.Open {
		upTo = c.End + 1
	}
	th := &m.threads[c.Thread]
	for i := range th.entries {
		r := th.entries[i].before(upTo)
		if r == nil {
			continue
		}
		src := r.edge.To
		if src.PStamp == p.epoch || src.Mask&xb == 0 {
			continue
		}
		via := c
		if r.entry == c {
			via = nil
		}
		p.reach(src, walkHop{from: src, to: r.entry, fromLine: r.edge.From, atLine: r.edge.At}, via)
		if src == x {
			return true
		}
		p.queue = append(p.queue, src)
	}
	return false
}

// start begins a search backwards from n (pathFrom, jumpFrom).
func (p *pathSearch) start(n *txn.Txn) {
	p.epoch++
	p.toward, p.via = append(p.toward[:0], walkHop{}), append(p.via[:0], nil)
	p.queue = append(p.queue[:0], n)
	n.PStamp, n.PIdx = p.epoch, 0
}

// reach stamps src as found, with its hop towards n and, if the hop enters
// an earlier transaction of via's thread, via as where the program-order
// hop from there leads.
func (p *pathSearch) reach(src *txn.Txn, h walkHop, via *txn.Txn) {
	src.PStamp, src.PIdx = p.epoch, int32(len(p.toward))
	p.toward = append(p.toward, h)
	p.via = append(p.via, via)
}

// path reads the path x ⇝ n off the search into dst, nearest to n first.
func (p *pathSearch) path(dst []walkHop, x, n *txn.Txn) []walkHop {
	path := dst[:0]
	for at := x; at != n; {
		i := at.PIdx
		h := p.toward[i]
		path = append(path, h)
		at = h.to
		if v := p.via[i]; v != nil {
			path = append(path, walkHop{from: h.to, to: v, fromLine: lastLine(h.to), atLine: v.Begin})
			at = v
		}
	}
	for i, k := 0, len(path)-1; i < k; i, k = i+1, k-1 {
		path[i], path[k] = path[k], path[i]
	}
	return path
}

// lastLine is the line of e's last event, where a program-order hop
// leaves it (e is complete: a later transaction of its thread exists).
func lastLine(e *txn.Txn) int64 {
	if e.End < 0 {
		return e.Begin
	}
	return e.End
}
