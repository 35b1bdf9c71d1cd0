package monitor

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/internal/txn"
	"github.com/conc-dev/conc/trace"
)

// TraceMonitor checks an observed trace one event at a time (the dynamic
// checkers' job, Velodrome's algorithm): it keeps the conflict graph of the
// trace so far, restricted to the transactions that may still lie on a new
// cycle, and finds every cycle the moment its last edge appears.
//
// Per variable it keeps only the last write and the reads since it (one per
// thread), per lock the last release, per thread its latest transaction:
// every other earlier conflicting event reaches the new one through these,
// so reachability — hence every cycle — is the full graph's. Garbage (a
// completed transaction no open one reaches) gets no edge from it and is
// recycled at once; the records that name it are recognised as dead
// without a pass over them: see garbage.go.
type TraceMonitor struct {
	opts    TraceOptions
	threads []traceThread
	vars    []txn.Var
	locks   []txn.Src // last release
	// readRels, posts: per lock its read releases since its last
	// acquire, per message its posts, one per thread (orderings.go).
	readRels, posts []txn.Var
	tokens          []txn.Tokens // per token, its gives not yet taken
	nodes           []*txn.Txn
	srcs            []txn.Src // scratch: sources of the current event's edges
	search          traceSearch
	paths           pathSearch
	slots           [traceSlots]traceSlot
	free            uint64     // free slots
	stack           []*txn.Txn // scratch of flood
	arena           txn.Arena
	dead            []*txn.Txn // scratch of collect
	gcAt            int        // collect when the graph has this many transactions
	gcMin           int        // the least growth between collections (tests shrink it)
	first           int64
	// unslotted counts the open transactions without a reachability slot:
	// while there are none, mask == 0 means no open transaction reaches.
	unslotted int
	described int // violations whose cycle was spelled out (violation)
	// pending: the described violations not yet handed over (emit), by
	// transaction.
	pending map[*txn.Txn]TraceViolation
	// watch and ends: the first described violation's cycle, by
	// transaction (thread, begin), and where its ends go (watchEnds).
	watch map[[2]int64][]int
	ends  []int64
	// readScans counts the reads pruneReads looked at, findScans those
	// readVar looked at to find a thread's read (the tests bound them).
	readScans int64
	findScans int64
	// readIdx: the read index of each variable with at least readIdxMin
	// reads since its last write (txn.ReadIndex; tests lower readIdxMin).
	readIdx    map[int32]txn.ReadIndex
	readIdxMin int
	// openHead, openTail: the threads (+1; 0 for none) with an open
	// transaction, oldest begin first (open.go).
	openHead, openTail int32
	stats              TraceStats
	res                TraceResult
}

type traceThread struct {
	cur     *txn.Txn  // open transaction
	last    txn.Src   // latest transaction and the line of its latest event
	pending []txn.Src // lock edges: the fork of this thread, before its first event
	// gone: every event of the thread before this line lies in a garbage
	// transaction (liveOf).
	gone     int64
	depth    int32
	sawEvent bool
	// entries: per other thread, the edges from it into this thread that
	// jumpFrom jumps by (entries.go).
	entries []entryList
	entryAt map[int32]int32 // entries' index by thread, once there are many
	// openPrev, openNext: the neighbours (thread+1; 0 for none) of this
	// thread in the list of threads with an open transaction (open.go).
	openPrev, openNext int32
}

// DefaultMaxCycle is how many transactions of a cycle a violation lists
// when TraceOptions.MaxCycle is 0 (conc monitor's --max-cycle).
const DefaultMaxCycle = 8

// NewTraceMonitor starts a monitor on the empty trace.
func NewTraceMonitor(opts TraceOptions) *TraceMonitor {
	if opts.MaxCycle <= 0 {
		opts.MaxCycle = DefaultMaxCycle
	}
	return &TraceMonitor{opts: opts, gcAt: gcMin, gcMin: gcMin, free: ^uint64(0), readIdxMin: txn.ReadIndexMin}
}

// First is the line at which the trace stopped being serializable, or 0.
func (m *TraceMonitor) First() int64 { return m.first }

// Events counts the events stepped so far: after StepAll with stop set,
// the caller learns from it how many of the batch's events were stepped.
func (m *TraceMonitor) Events() int64 { return m.stats.Events }

// Step adds one event; events must come in trace order. Ids index the
// trace's tables and grow on demand; nested begin/end pairs flatten here too.
func (m *TraceMonitor) Step(ev trace.Event) { m.StepAll([]trace.Event{ev}, false) }

// StepAll steps through evs, or up to the first violating event (First)
// if stop is set. The loop dispatches every event with one call and one
// thread lookup: this is the monitor's innermost loop.
func (m *TraceMonitor) StepAll(evs []trace.Event, stop bool) {
	for i := range evs {
		ev := &evs[i]
		t := ev.Thread
		th := m.thread(t)
		switch ev.Op {
		case model.OpRead, model.OpWrite:
			m.access(th, t, ev.Target, ev.Line, ev.Op == model.OpWrite)
		case model.OpBegin:
			if th.depth++; th.depth == 1 {
				m.begin(th, t, ev.Line)
			}
		case model.OpEnd:
			// A stray end (depth 0) is rejected by the reader; ignore it here.
			if th.depth > 0 {
				if th.depth--; th.depth == 0 {
					m.end(th, ev.Line)
				}
			}
		// Without lock edges, locks, fork and join only restrict
		// interleavings.
		case model.OpAcquire:
			if m.opts.LockEdges {
				m.writeAcquire(th, t, ev.Target, ev.Line)
			}
		case model.OpRelease:
			if m.opts.LockEdges {
				m.lockEvent(th, t, ev.Target, ev.Line, true)
			}
		case model.OpReadAcquire, model.OpReadRelease, model.OpPost, model.OpWait, model.OpGive, model.OpTake:
			if m.opts.LockEdges {
				m.orderingEvent(th, t, ev.Op, ev.Target, ev.Line)
			}
		case model.OpFork, model.OpJoin:
			if m.opts.LockEdges {
				m.forkJoin(t, ev.Target, ev.Line, ev.Op == model.OpJoin)
			}
		}
		if stop && m.first > 0 {
			m.stats.Events += int64(i + 1)
			return
		}
	}
	m.stats.Events += int64(len(evs))
}

// thread and lockRef are the records of an id, growing the tables on a
// new one (access grows the variables' itself).
func (m *TraceMonitor) thread(t int32) *traceThread {
	if int(t) >= len(m.threads) {
		m.threads = grow(m.threads, t)
	}
	return &m.threads[t]
}

func (m *TraceMonitor) lockRef(l int32) *txn.Src {
	if int(l) >= len(m.locks) {
		m.locks = grow(m.locks, l)
	}
	return &m.locks[l]
}

// grow extends records to hold index i. It is out of line so that the
// lookups that call it on a new id stay small.
//
//go:noinline
func grow[T any](records []T, i int32) []T {
	for int(i) >= len(records) {
		var zero T
		records = append(records, zero)
	}
	return records
}

// newTxn starts a transaction of th at ev; begin marks a begin/end one.
func (m *TraceMonitor) newTxn(th *traceThread, t int32, line int64, begin bool) *txn.Txn {
	x := m.arena.Alloc()
	x.Begin, x.End, x.Thread, x.Open, x.Slot = line, -1, t, true, -1
	if begin {
		th.cur = x
		if m.takeSlot(x); x.Slot < 0 {
			m.unslotted++
		}
		m.stats.Txns++ // a unary one is counted by link, node or not
	}
	x.Pos = int32(len(m.nodes))
	m.nodes = append(m.nodes, x)
	if int64(len(m.nodes)) > m.stats.MaxLive {
		m.stats.MaxLive = int64(len(m.nodes))
	}
	return x
}

// complete ends x: from now on it takes no new in-edge.
func (m *TraceMonitor) complete(x *txn.Txn, line int64) {
	x.Open, x.End = false, line
	m.dropSlot(x)
	if x.Viol != txn.NoViolation {
		m.emit(x)
	}
	if m.garbage(x) {
		m.becameGarbage(x)
	} else if len(m.nodes) >= m.gcAt {
		m.collect()
	}
}

// attach is link, with its commonest case inline: an event of an open
// transaction that brings no live source. srcs are built on the scratch
// m.srcs, which keeps them if they grew it.
func (m *TraceMonitor) attach(cur *txn.Txn, srcs []txn.Src, t int32, line int64) *txn.Txn {
	m.keepScratch(srcs)
	if cur != nil && len(srcs) == 0 {
		return cur
	}
	return m.link(cur, srcs, t, line)
}

// settle ends an event of th outside the fast paths, once the records
// name x (from attach): x is th's latest, and an event outside any
// transaction (cur nil) that got a node is a unary transaction, complete,
// or the latest of a run that absorbed it.
func (m *TraceMonitor) settle(th *traceThread, cur, x *txn.Txn, line int64) {
	th.last, th.sawEvent = txn.Src{Txn: x, Line: line}, true
	switch {
	case cur != nil || x == nil:
	case x.Open:
		m.complete(x, line)
	default:
		x.End = line // absorbed into a run (absorb.go)
	}
}

// keepScratch keeps srcs, built on m.srcs, as the scratch if it grew.
func (m *TraceMonitor) keepScratch(srcs []txn.Src) {
	if cap(srcs) != cap(m.srcs) {
		m.srcs = srcs
	}
}

// link adds the edges srcs -> x and returns
// x. A nil x is a unary transaction of thread t: it gets a node only if
// some source is live, for one whose sources are all garbage is garbage
// itself from birth (its in-edges are final), and the records then name
// nobody. (So the caller's event was unary with a node iff it passed nil
// and got a transaction back.)
func (m *TraceMonitor) link(x *txn.Txn, srcs []txn.Src, t int32, line int64) *txn.Txn {
	if x == nil {
		m.stats.Txns++ // counted here, node or not
		if len(srcs) == 0 && m.unslotted == 0 {
			return nil
		}
		if p := m.absorb(t, srcs); p != nil {
			return p
		}
		x = m.newTxn(nil, t, line, false)
		x.Unary = true
	}
	if len(srcs) > 0 {
		m.addEdges(x, srcs, line)
	}
	return x
}

// threadSources starts the sources of an event of th in x: th's previous
// transaction (program order) and pending forks of th.
func (m *TraceMonitor) threadSources(th *traceThread, x *txn.Txn) []txn.Src {
	srcs := m.srcs[:0]
	if th.last.Txn != x && th.last.Txn != nil && m.live(&th.last) {
		srcs = append(srcs, th.last)
	}
	if len(th.pending) > 0 {
		for i := range th.pending {
			if m.live(&th.pending[i]) {
				srcs = append(srcs, th.pending[i])
			}
		}
		th.pending = th.pending[:0]
	}
	return srcs
}

// addEdges adds an edge s -> x for each source s of another live
// transaction. Edges only ever enter the current event's transaction, so a
// new cycle must pass through x, and exists only if x already has
// successors: x's reachability bit tells which sources close one
// (closuresByBits), or, for an x without a bit, a search (closures).
func (m *TraceMonitor) addEdges(x *txn.Txn, srcs []txn.Src, line int64) {
	switch {
	case len(x.Out) == 0: // x reaches nothing: no cycle
	case x.Slot >= 0:
		m.closuresByBits(x, srcs, line)
	default:
		m.closures(x, srcs, line)
	}
	for _, s := range srcs {
		if s.Txn.LastOut == x {
			continue // already there (the common repeat)
		}
		s.Txn.Out = append(s.Txn.Out, txn.Edge{To: x, From: s.Line, At: line})
		s.Txn.LastOut = x
		if len(x.In) == 1 && cap(x.In) == 1 && len(x.Out) == 0 {
			x.SpreadIn()
		}
		x.In = append(x.In, txn.Edge{To: s.Txn, From: s.Line, At: line})
		m.stats.Edges++
		if s.Txn.Thread != x.Thread && !m.countOnly() {
			m.entered(x, txn.Edge{To: s.Txn, From: s.Line, At: line})
		}
	}
	for _, s := range srcs {
		if s.Txn.Mask&^x.Mask != 0 {
			m.flow(s.Txn, x)
		}
	}
}
