package view

import (
	"context"
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// node is a node of the polygraph: a transaction (thread >= 0), or a
// helper node (thread -1) that stands for many arcs at once (a message's
// posts before its waits; a variable's readers before its writers).
type node struct {
	thread, prev int32 // prev: the thread's transaction before it, -1 none
	begin, end   int64 // trace lines; end -1 while open
}

// arc is a precedence the polygraph holds: from before to, for kind's
// reason over x (a variable, lock, thread or message) and the events at
// lines l1 and l2 (Fact's Lines). A Choice arc's x is the choice's index.
type arc struct {
	from, to int32
	kind     FactKind
	x        int32
	l1, l2   int64
}

// pair is an arc of the conflict graph, which needs no reason.
type pair struct{ from, to int32 }

// src is a write as a read sees it: the writing node and the write's
// line; node -1 is the initial value.
type src struct {
	node int32
	line int64
}

// rf is one transaction's external read of a variable (before its own
// first write of it): every such read of the variable in the transaction
// reads from src (else an obstacle), first at line.
type rf struct {
	reader int32
	from   src
	line   int64
}

// varState is what the polygraph keeps of a variable: its last write so
// far, its writers (each transaction once, with its first write, in
// order of first write), its
// external reads, and the transactions that read it since its last write
// (for the conflict graph).
type varState struct {
	last    src
	writers []src
	reads   []rf
	since   []int32
}

// access is an open transaction's own record of one variable: its last
// write of it (0: none yet), its external read's source, and whether
// another transaction read its last write (a later write of its own
// would then make that read see a write no serial order shows it).
type access struct {
	wrote   int64
	ext     src
	hasExt  bool
	readBy  int32 // the first other node that read its last write, -1 none
	readAt  int64
	flagged bool
}

// builder streams a trace into the polygraph's parts and the conflict
// graph's arcs, noting the obstacles one transaction shows on its own.
type builder struct {
	lockEdges bool
	filter    *trace.BlockFilter
	events    int64
	nodes     []node
	real      int64  // transactions among nodes
	arcs      []arc  // --lock-edges' arcs: both graphs have them, and program order (node.prev)
	conflicts []pair // the conflict graph's access arcs, transitively reduced
	vars      []varState
	threads   []*threadState
	local     []rawObstacle // the first maxObstacles
	locals    int64         // all of them
	sync      syncState
}

// threadState is a thread's open transaction (-1 none), its last
// transaction, its open transaction's accesses, and (LockEdges) the node
// that forked it.
type threadState struct {
	open, last int32
	acc        map[int32]int32 // variable -> index into slab
	slab       []access
	forkedBy   int32
}

func newBuilder(lockEdges bool) *builder {
	return &builder{lockEdges: lockEdges, sync: newSyncState()}
}

// read streams r into b. It returns why it stopped early ("" at the end of
// the trace) or the trace's error.
func (b *builder) read(ctx context.Context, r *trace.Reader) (string, error) {
	evs := make([]trace.Event, 4096)
	for {
		n, err := r.Read(evs)
		b.events += int64(n)
		kept := b.filter.Filter(evs[:n])
		for i := range kept {
			b.step(&kept[i])
		}
		switch {
		case err == io.EOF:
			b.messageArcs()
			return "", nil
		case err != nil:
			return "", err
		case ctx.Err() != nil:
			return context.Cause(ctx).Error(), nil
		}
	}
}

func (b *builder) thread(t int32) *threadState {
	for int(t) >= len(b.threads) {
		b.threads = append(b.threads, &threadState{open: -1, last: -1, forkedBy: -1})
	}
	return b.threads[t]
}

func (b *builder) variable(x int32) *varState {
	for int(x) >= len(b.vars) {
		b.vars = append(b.vars, varState{last: src{-1, 0}})
	}
	return &b.vars[x]
}

// step adds one event.
func (b *builder) step(ev *trace.Event) {
	ts := b.thread(ev.Thread)
	switch {
	case ev.Op == model.OpBegin:
		b.begin(ev.Thread, ts, ev.Line)
	case ev.Op == model.OpEnd:
		if ts.open >= 0 {
			b.nodes[ts.open].end = ev.Line
			b.finish(ts)
		}
	case ev.Op.IsAccess() || (b.lockEdges && ev.Op.IsSync()):
		unary := ts.open < 0
		if unary {
			b.begin(ev.Thread, ts, ev.Line)
			b.nodes[ts.open].end = ev.Line
		}
		if ev.Op.IsAccess() {
			b.access(ts, ev)
		} else {
			b.syncEvent(ts.open, ev)
		}
		if unary {
			b.finish(ts)
		}
	}
}

// begin opens a transaction of thread t at line, after the thread's last
// one (program order) and, the first time, after its fork.
func (b *builder) begin(t int32, ts *threadState, line int64) {
	id := b.newNode(t, line)
	b.nodes[id].prev = ts.last
	if ts.last < 0 && ts.forkedBy >= 0 {
		b.arcs = append(b.arcs, arc{ts.forkedBy, id, Fork, t, b.sync.forkLine[t], line})
	}
	ts.open, ts.last = id, id
	if ts.acc == nil {
		ts.acc = map[int32]int32{}
	}
}

func (b *builder) newNode(t int32, line int64) int32 {
	id := int32(len(b.nodes))
	b.nodes = append(b.nodes, node{thread: t, prev: -1, begin: line, end: -1})
	if t >= 0 {
		b.real++
	}
	return id
}

// finish closes the thread's open transaction.
func (b *builder) finish(ts *threadState) {
	ts.open = -1
	if len(ts.acc) > 64 {
		ts.acc = map[int32]int32{} // clear costs a map's capacity, which stays
	} else {
		clear(ts.acc)
	}
	ts.slab = ts.slab[:0]
}

// access adds a read or write of the open transaction of ts.
func (b *builder) access(ts *threadState, ev *trace.Event) {
	c, x := ts.open, ev.Target
	v := b.variable(x)
	a := ts.get(x)
	if ev.Op == model.OpRead {
		b.readAccess(c, x, v, a, ev.Line)
		return
	}
	b.writeAccess(c, x, v, a, ev.Line)
}

func (b *builder) readAccess(c, x int32, v *varState, a *access, line int64) {
	if v.last.node >= 0 && v.last.node != c {
		b.conflict(v.last.node, c)
	}
	if len(v.since) == 0 || v.since[len(v.since)-1] != c {
		v.since = append(v.since, c)
	}
	switch {
	case a.wrote > 0:
		if v.last.node != c && !a.flagged {
			a.flagged = true
			o := b.obstacle(OwnWriteLost, x, c, line, v.last)
			o.events = append(o.events, rawEvent{c, a.wrote, model.OpWrite})
			b.addLocal(o)
		}
	case a.hasExt:
		if a.ext != v.last && !a.flagged {
			a.flagged = true
			o := b.obstacle(SplitRead, x, c, line, v.last)
			o.events = append(o.events, rawEvent{a.ext.node, a.ext.line, model.OpWrite})
			b.addLocal(o)
		}
	default:
		a.ext, a.hasExt = v.last, true
		v.reads = append(v.reads, rf{reader: c, from: v.last, line: line})
		b.markRead(v.last, c, x, line)
	}
}

// markRead notes on an open writer that c read its last write of x.
func (b *builder) markRead(w src, c, x int32, line int64) {
	if w.node < 0 {
		return
	}
	ts := b.threads[b.nodes[w.node].thread]
	if ts.open != w.node {
		return // closed: the write was its last
	}
	if i, ok := ts.acc[x]; ok && ts.slab[i].readBy < 0 {
		wa := &ts.slab[i]
		wa.readBy, wa.readAt = c, line
	}
}

func (b *builder) writeAccess(c, x int32, v *varState, a *access, line int64) {
	if v.last.node >= 0 && v.last.node != c {
		b.conflict(v.last.node, c)
	}
	for _, r := range v.since {
		if r != c {
			b.conflict(r, c)
		}
	}
	v.since = v.since[:0]
	if a.wrote == 0 {
		v.writers = append(v.writers, src{c, line})
	}
	if a.readBy >= 0 {
		o := b.obstacle(StaleRead, x, a.readBy, a.readAt, src{c, a.wrote})
		o.events = append(o.events, rawEvent{c, line, model.OpWrite})
		b.addLocal(o)
		a.readBy = -1
	}
	a.wrote = line
	v.last = src{c, line}
}

// conflict adds an arc of the conflict graph, unless it repeats the last.
func (b *builder) conflict(from, to int32) {
	if n := len(b.conflicts); n > 0 && b.conflicts[n-1] == (pair{from, to}) {
		return
	}
	b.conflicts = append(b.conflicts, pair{from, to})
}

// addLocal notes a local obstacle: the first maxObstacles are kept,
// all are counted.
func (b *builder) addLocal(o rawObstacle) {
	if b.locals++; len(b.local) < maxObstacles {
		b.local = append(b.local, o)
	}
}

// get is the open transaction's record of x, made on first use. The
// pointer is good until the next get.
func (ts *threadState) get(x int32) *access {
	i, ok := ts.acc[x]
	if !ok {
		i = int32(len(ts.slab))
		ts.slab = append(ts.slab, access{readBy: -1})
		ts.acc[x] = i
	}
	return &ts.slab[i]
}
