package blocks

import (
	"context"
	"encoding/binary"
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// lockAt is a shared lock held at an access, with its acquire's place
// (as Access.Off; -1: before the transaction). Two accesses hold a lock
// continuously between them iff both hold it with the same acquire (the
// paper's held(e1, e2)).
type lockAt struct {
	lock int32
	acq  int64
}

// Access is an access of a transaction that can conflict with another
// thread's (proj.Users.Relevant): the events blocks are made of.
type Access struct {
	Var   int32
	Write bool
	// Off is its place among the transaction's accesses and the
	// acquires and releases of its sections (a rank: transactions of one
	// shape share a content; a run's positions come from its window).
	Off   int64
	Epoch int32 // the thread's forks and joins before it
	// IR: a read with no write of Var before it in the transaction (an
	// initial read); FW: the last write of Var in it (its final write).
	IR, FW bool
	held   []lockAt // the shared locks held, by lock
}

// section is a critical section of a shared lock inside a transaction:
// its acquire's and release's places (as Access.Off).
type section struct {
	lock     int32
	acq, rel int64
}

// Content is what the block test reads of a transaction. The transactions
// of a thread with equal contents share one, as the paper's blocks are
// shared: the test's answer for a content is every such transaction's.
type Content struct {
	Acc   []Access
	secs  []section
	byVar map[int32][]int32 // per variable: its accesses, in order
	vars  []int32           // the variables, sorted
	Txns  []int32           // the thread's transactions with this content
}

// Txn is one transaction of a thread.
type Txn struct {
	Content    int32
	Num        int32 // its number in the thread, from 1, unary ones counted (T#Num)
	Start, End int64 // its first edge, and one past its last
	// Free0 is the thread's last position at or before Start where it
	// holds no shared lock, Free1 its first at or after End (its last
	// position when there is none).
	Free0, Free1   int64
	Begin, EndLine int64 // trace lines of its first event and of its end (0: open)
}

// syncAt is a fork or join by a thread: its edge and the other thread.
type syncAt struct {
	edge  int64
	other int32
}

// Thread is what the pass keeps of one thread.
type Thread struct {
	Txns       []Txn
	Contents   []*Content
	Edges      int64   // its projection's edges
	epochStart []int64 // the edge each epoch starts at
	epochHeld  []bool  // whether it holds a shared lock there
	endHeld    bool    // whether it holds one at its end
	forks      []syncAt
	joins      []syncAt
	keys       map[string]int32 // content keys
	bs         *threadBlocks    // its blocks (blockset.go), once built
}

// Index is the block pass's result.
type Index struct {
	Threads []*Thread
	s       *proj.Summary
	u       *proj.Users
	fj      *hb.FJ
	// forkVC and endVC are the observed happens-before clocks (locks
	// included) of each forked thread's first event and of each thread's
	// end, nil beyond maxDense threads: a witness's context.
	forkVC, endVC [][]int64
	ForkJoin      bool // some fork or join
	// Messages: some post, wait, give or take (docs/spec.md §3), which
	// the grid does not model (read locks it does).
	Messages bool
	// Inversion is a potential deadlock, in words: two threads take two
	// shared locks in opposite orders ("" when none was seen).
	Inversion string
	order     map[[2]int32]orderAt // lock l held while m is taken: the first such acquire
	forkedBy  map[int32]syncAt     // a forked thread: its forker and the fork's edge
}

// orderAt is an acquire of one lock while holding another.
type orderAt struct {
	thread int32
	line   int64
}

// shared reports a lock two threads use: only those make threads wait.
func (ix *Index) shared(l int32) bool { return ix.s.SharedLock(l) }

// maxDense bounds the threads whose observed clocks the pass keeps
// (threads² words), as predict's two-thread finders do.
const maxDense = 2048

// Collect is the block pass over the spool.
func Collect(ctx context.Context, s *proj.Summary, sp *proj.Spool, u *proj.Users) (*Index, error) {
	k := len(s.Threads)
	ix := &Index{Threads: make([]*Thread, k), s: s, u: u, fj: hb.NewFJ(k), order: map[[2]int32]orderAt{},
		forkedBy: map[int32]syncAt{}}
	c := &collector{ix: ix, s: s, u: u, st: make([]threadState, k)}
	for t := range ix.Threads {
		ix.Threads[t] = &Thread{epochStart: []int64{0}, epochHeld: []bool{false}, keys: map[string]int32{}}
	}
	if k <= maxDense {
		c.w = hb.NewWalk(k, len(s.Locks), true)
	}
	done, err := proj.SpoolEach(sp, func() bool { return ctx.Err() != nil }, func(ev *trace.Event) bool {
		c.step(ev)
		return true
	})
	if err != nil {
		return nil, err
	}
	if !done {
		return nil, ctx.Err()
	}
	c.finish()
	return ix, nil
}

// threadState is a thread's state during the pass.
type threadState struct {
	pos      int64
	open     bool     // inside begin … end
	held     []lockAt // shared locks held, with their acquire's edge
	reads    int      // read holds of shared locks (docs/spec.md §3), which make no block's lock set
	epoch    int32
	num      int32     // transactions begun
	cur      *building // the open transaction
	lastFree int64     // the last position holding no shared lock
	pending  []int     // transactions waiting for their Free1
}

// building is a transaction being read.
type building struct {
	num         int32
	start, line int64
	free0       int64
	acc         []Access
	secs        []section
}

// collector is the pass.
type collector struct {
	ix *Index
	s  *proj.Summary
	u  *proj.Users
	st []threadState
	w  *hb.Walk
}

// step reads one event.
func (c *collector) step(ev *trace.Event) {
	t := ev.Thread
	st := &c.st[t]
	if c.w != nil {
		c.w.Step(ev)
	}
	switch op := ev.Op; {
	case op == model.OpBegin:
		st.open = true
		c.begin(st, ev.Line)
	case op == model.OpEnd:
		c.close(t, st, st.pos+1, ev.Line)
		st.open = false
	case op.IsAccess():
		c.access(t, st, ev)
	case op == model.OpAcquire && c.s.SharedLock(ev.Target):
		c.acquire(t, st, ev)
	case op == model.OpRelease && c.s.SharedLock(ev.Target):
		c.release(st, ev.Target)
	case op == model.OpReadAcquire && c.s.SharedLock(ev.Target):
		st.reads++
	case op == model.OpReadRelease && c.s.SharedLock(ev.Target):
		st.reads--
	case op == model.OpFork || op == model.OpJoin:
		c.sync(t, st, ev)
	}
	c.ix.Messages = c.ix.Messages || ev.Op.IsExtension() && ev.Op != model.OpReadAcquire && ev.Op != model.OpReadRelease
	st.pos += proj.EdgesOf(ev, st.open)
	if st.free() {
		st.lastFree = st.pos
		c.freed(t, st)
	}
}

// free reports that the thread holds no shared lock, either way.
func (st *threadState) free() bool { return len(st.held) == 0 && st.reads == 0 }

// begin starts a transaction at the thread's position.
func (c *collector) begin(st *threadState, line int64) {
	st.num++
	st.cur = &building{num: st.num, start: st.pos, line: line, free0: st.lastFree}
}

// access adds an access, a unary transaction of its own outside begin …
// end.
func (c *collector) access(t int32, st *threadState, ev *trace.Event) {
	at := st.pos
	if !st.open {
		c.begin(st, ev.Line)
		at++
	}
	if c.u.Relevant(t, proj.LetterOf(ev)) {
		b := st.cur
		held := make([]lockAt, len(st.held))
		for i, h := range st.held {
			held[i] = lockAt{h.lock, h.acq - b.start}
		}
		slices.SortFunc(held, func(x, y lockAt) int { return int(x.lock) - int(y.lock) })
		b.acc = append(b.acc, Access{Var: ev.Target, Write: ev.Op == model.OpWrite, Off: at - b.start,
			Epoch: st.epoch, held: held})
	}
	if !st.open {
		c.close(t, st, st.pos+3, ev.Line)
	}
}

// acquire takes a shared lock, noting the lock order for Inversion.
func (c *collector) acquire(t int32, st *threadState, ev *trace.Event) {
	for _, h := range st.held {
		key := [2]int32{h.lock, ev.Target}
		if _, ok := c.ix.order[key]; !ok {
			c.ix.order[key] = orderAt{t, ev.Line}
		}
	}
	st.held = append(st.held, lockAt{ev.Target, st.pos})
}

// release gives a shared lock back; a section that began inside the open
// transaction is one of its sections.
func (c *collector) release(st *threadState, l int32) {
	i := slices.IndexFunc(st.held, func(h lockAt) bool { return h.lock == l })
	if i < 0 {
		return
	}
	if b := st.cur; b != nil && st.held[i].acq >= b.start {
		b.secs = append(b.secs, section{l, st.held[i].acq - b.start, st.pos - b.start})
	}
	st.held = slices.Delete(st.held, i, i+1)
}

// sync is a fork or a join: a new epoch of the thread.
func (c *collector) sync(t int32, st *threadState, ev *trace.Event) {
	th := c.ix.Threads[t]
	c.ix.ForkJoin = true
	if ev.Op == model.OpFork {
		c.ix.fj.Fork(t, ev.Target, st.pos)
		th.forks = append(th.forks, syncAt{st.pos, ev.Target})
		c.ix.forkedBy[ev.Target] = syncAt{st.pos, t}
	} else {
		c.ix.fj.Join(t, ev.Target, c.st[ev.Target].pos)
		th.joins = append(th.joins, syncAt{st.pos, ev.Target})
	}
	st.epoch++
	th.epochStart = append(th.epochStart, st.pos+1)
	th.epochHeld = append(th.epochHeld, !st.free())
}

// freed gives the transactions waiting for a lock-free position theirs.
func (c *collector) freed(t int32, st *threadState) {
	th := c.ix.Threads[t]
	for _, i := range st.pending {
		th.Txns[i].Free1 = st.pos
	}
	st.pending = st.pending[:0]
}

// finish closes what the trace leaves open and keeps the clocks.
func (c *collector) finish() {
	for t := range c.st {
		st, th := &c.st[t], c.ix.Threads[t]
		if st.cur != nil {
			c.close(int32(t), st, st.pos, 0)
		}
		th.Edges, th.endHeld = st.pos, !st.free()
		for _, i := range st.pending {
			th.Txns[i].Free1 = st.pos
		}
	}
	if c.w != nil {
		c.ix.forkVC, c.ix.endVC = c.w.ForkVC, c.w.VC
	}
	c.ix.Inversion = c.ix.inversion(c.s)
}

// close ends the open transaction at edge end (line 0: open at the
// trace's end) and keeps it if it has an access.
func (c *collector) close(t int32, st *threadState, end, line int64) {
	b := st.cur
	st.cur = nil
	if b == nil || len(b.acc) == 0 {
		return
	}
	th := c.ix.Threads[t]
	ranks(b.acc, b.secs)
	ct := newContent(b.acc, b.secs)
	key := ct.key()
	ci, ok := th.keys[key]
	if !ok {
		ci = int32(len(th.Contents))
		th.keys[key] = ci
		th.Contents = append(th.Contents, ct)
	}
	th.Contents[ci].Txns = append(th.Contents[ci].Txns, int32(len(th.Txns)))
	th.Txns = append(th.Txns, Txn{Content: ci, Num: b.num, Start: b.start, End: end, Free0: b.free0, Free1: -1,
		Begin: b.line, EndLine: line})
	st.pending = append(st.pending, len(th.Txns)-1) // the next lock-free position, from End on, is its Free1
}

// ranks replaces the edges (from the transaction's first) of the
// accesses, of their locks' acquires and of the sections by their ranks
// among them; an acquire before the transaction becomes -1 (at most one
// acquire of a lock before it is still held inside).
func ranks(acc []Access, secs []section) {
	var offs []int64
	for _, a := range acc {
		offs = append(offs, a.Off)
		for _, h := range a.held {
			offs = append(offs, h.acq)
		}
	}
	for _, s := range secs {
		offs = append(offs, s.acq, s.rel)
	}
	slices.Sort(offs)
	offs = slices.Compact(offs)
	rank := func(o int64) int64 {
		if o < 0 {
			return -1
		}
		i, _ := slices.BinarySearch(offs, o)
		return int64(i)
	}
	for i := range acc {
		acc[i].Off = rank(acc[i].Off)
		for j := range acc[i].held {
			acc[i].held[j].acq = rank(acc[i].held[j].acq)
		}
	}
	for i := range secs {
		secs[i].acq, secs[i].rel = rank(secs[i].acq), rank(secs[i].rel)
	}
}

// newContent marks the initial reads and final writes and indexes the
// accesses by variable.
func newContent(acc []Access, secs []section) *Content {
	ct := &Content{Acc: acc, secs: secs, byVar: map[int32][]int32{}}
	written := map[int32]bool{}
	for i := range acc {
		a := &acc[i]
		if !a.Write && !written[a.Var] {
			a.IR = true
		}
		written[a.Var] = written[a.Var] || a.Write
		if _, ok := ct.byVar[a.Var]; !ok {
			ct.vars = append(ct.vars, a.Var)
		}
		ct.byVar[a.Var] = append(ct.byVar[a.Var], int32(i))
	}
	for _, is := range ct.byVar {
		for j := len(is) - 1; j >= 0; j-- {
			if acc[is[j]].Write {
				acc[is[j]].FW = true
				break
			}
		}
	}
	slices.Sort(ct.vars)
	return ct
}

// key is the content as bytes, for sharing equal ones.
func (ct *Content) key() string {
	var b []byte
	for _, a := range ct.Acc {
		w := int64(0)
		if a.Write {
			w = 1
		}
		b = binary.AppendVarint(b, int64(a.Var)*2+w)
		b = binary.AppendVarint(b, a.Off)
		b = binary.AppendVarint(b, int64(a.Epoch))
		b = binary.AppendVarint(b, int64(len(a.held)))
		for _, h := range a.held {
			b = binary.AppendVarint(b, int64(h.lock))
			b = binary.AppendVarint(b, h.acq)
		}
	}
	b = append(b, '|')
	for _, s := range ct.secs {
		b = binary.AppendVarint(b, int64(s.lock))
		b = binary.AppendVarint(b, s.acq)
		b = binary.AppendVarint(b, s.rel)
	}
	return string(b)
}
