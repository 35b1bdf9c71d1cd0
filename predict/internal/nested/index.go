// Package nested is conc predict's linear two-thread decision under
// nested locking (docs/predict.md, "Two threads and one variable, in
// linear time"; step 5c of the cascade). It decides whether some run has
// a cycle of conflicts on one variable through the transactions of two
// threads: exactly the patterns e1 <po e2 of one transaction A of T1
// and one access f of T2, all three of one variable, e1 D f D e2, run as
// e1 < f < e2 (the argument that one access f suffices is in the doc).
//
// Under nested locking a pattern is realisable (with every section closed)
// iff T1 holds no lock at some position after e1 up to e2 (case A), or
// (case B, T1 inside one outer section from e1 to e2, W the sections held
// throughout) none of three barriers holds:
//
//  1. T2 holds at f a lock of W;
//  2. an acquisition-history crossing before e1 and f: k2 in W, k1
//     acquired by T1 inside k2's section by e1, while T2 holds k1 at f and
//     acquired k2 inside that section before f;
//  3. a crossing after them: k1 in W and k2 held at e2 acquired inside it,
//     while T2 holds k2 at f and acquires k1 inside that section after f.
//
// Every condition gets weaker as e1 moves earlier in A (W, and the
// histories before e1, only shrink), so T1's first access of the variable
// in A (its first write, when f reads) stands for every e1. And T2's
// accesses fall into classes (thread, write, locks held, both histories)
// that the conditions cannot tell apart: the first pass indexes, per
// variable, one access of each class (the last, so that it follows the
// forks), and the second meets every access e2 of an open transaction with
// its variable's classes. Linear in the trace for a bounded nesting depth
// and number of classes; memory O(variables × classes) plus the open
// transactions' first accesses, never the trace's length.
//
// Other threads are left out of the decision, and so are forks and joins
// except those between T1 and T2 themselves: e2 must follow T1's fork of
// T2, f T2's fork of T1, e1 must precede T1's join of T2 and f T2's join
// of T1 (every run respects these). Dropping constraints only adds runs,
// so finding no pattern proves that no run has such a cycle. So that a
// pattern can meet those bounds, the classes are also told apart by the
// thread's forks and joins so far (its epoch). A pattern found is made a
// run (plan.go), which predict verifies like every other witness; one
// that is refused proves nothing either way.
package nested

import (
	"fmt"
	"github.com/conc-dev/conc/predict/internal/hb"
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// class is an indexed access f of a thread: the last of its class.
type class struct {
	t     int32
	epoch int32 // the thread's forks and joins before f
	write bool
	ctx   *lockContext // the locks at f
	// The first and the last access of the class: a pattern takes the
	// first that forks and joins allow (a shorter witness), else the last.
	first, last member
}

// member is an access f of a class: its edge and line, its thread's
// last lock-free position before it and first after it (its end when none).
type member struct {
	f, y0, z, line int64
}

// lockContext is what the conditions ask of an access's locks: those held
// (outermost first) and its backward and forward acquisition histories.
// Contexts are interned (one pointer per content), so that classes compare
// and hash by pointer.
type lockContext struct {
	held      []int32
	back, fwd []lockDepth
}

// pendingContext is the context of a thread's accesses between two of its
// acquisitions in one section (its top section and acquisition count),
// whose forward history is known once the thread holds no lock.
type pendingContext struct {
	top  *section
	acqs int64
	ctx  lockContext
	secs []*section
}

// pending is an access waiting for its context's forward history.
type pending struct {
	v  int32
	c  class
	pc *pendingContext
}

// classKey is a class: variable, thread, epoch, write and context.
type classKey struct {
	v, t, epoch int32
	write       bool
	ctx         *lockContext
}

// pendingKey tells pending accesses apart: two with one key are of one class.
type pendingKey struct {
	v     int32
	write bool
	top   *section
	acqs  int64
	epoch int32
}

// Indexer is the first pass: per variable, one access of each class.
type Indexer struct {
	w       *hb.Walk
	th      []thread
	pend    [][]pending
	pendIdx []map[pendingKey]int
	idx     [][]class
	keys    map[classKey]int32
	ctxs    map[uint64][]*lockContext // interned contexts by hash
	pc      []*pendingContext         // per thread: the context of its last pending access
	bad     string                    // why the locking is not nested ("": it is)
	size    int64                     // classes, pending accesses and histories (at most MaxSize)
	words   int                       // words of histories not yet counted in size (charge)
	limit   int64                     // the pass's bound on size
	work    int64                     // acquires, and entries of histories and acquire logs made
	// acqLog is per thread the acquires inside its outermost section that
	// are some pending access's first acquire of their lock after it (the
	// forward histories' raw material, read at flush).
	acqLog [][]acq
	names  *proj.Summary
	epoch  []int32 // per thread: its forks and joins so far
	fj     *hb.FJ
	// joined: per thread, its joins with the joined thread's observed
	// clock, which a witness's context must run to their end.
	joined [][]joinAt
	sync   map[syncKey]int64 // the edge of each fork and join of a thread by another
}

// joinAt is a join: the joining thread's epoch before it, the joined
// thread and its observed clock at its end.
type joinAt struct {
	epoch int32
	u     int32
	vc    []int64
}

// syncKey is thread t's fork (or join) of thread u.
type syncKey struct {
	join bool
	t, u int32
}

func newIndexer(s *proj.Summary) *Indexer {
	k := len(s.Threads)
	nx := &Indexer{w: hb.NewWalk(k, len(s.Locks), true), th: make([]thread, k), pend: make([][]pending, k),
		pendIdx: make([]map[pendingKey]int, k), acqLog: make([][]acq, k), idx: make([][]class, len(s.Vars)), keys: map[classKey]int32{}, ctxs: map[uint64][]*lockContext{}, pc: make([]*pendingContext, k), names: s,
		epoch: make([]int32, k), sync: map[syncKey]int64{}, fj: hb.NewFJ(k),
		joined: make([][]joinAt, k)}
	for t := range nx.pendIdx {
		nx.pendIdx[t] = map[pendingKey]int{}
	}
	return nx
}

// step takes one event of the first pass.
func (nx *Indexer) step(ev *trace.Event) {
	t := ev.Thread
	before := nx.w.VC[t][t]
	at := nx.w.Step(ev)
	nt := &nx.th[t]
	switch {
	case ev.Op == model.OpAcquire:
		prev := nt.acquire(ev.Target, at)
		nx.work++
		if pc := nx.pc[t]; pc != nil && prev < pc.acqs { // some pending access's first after it
			nx.acqLog[t] = append(nx.acqLog[t], acq{ev.Target, nt.acqs - 1})
			nx.work++
			nx.charge(3)
		}
	case ev.Op == model.OpRelease:
		if !nt.release(ev.Target, at) && nx.bad == "" {
			nx.bad = fmt.Sprintf("thread %s releases %s at line %d", nx.names.ThreadNames[t], nx.names.Locks[ev.Target], ev.Line)
			if n := len(nt.stack); n > 0 {
				nx.bad += fmt.Sprintf(" while holding %s, acquired after it", nx.names.Locks[nt.stack[n-1].lock])
			}
		}
		if len(nt.stack) == 0 {
			nx.flush(int(t), at+1)
		}
	case ev.Op == model.OpFork || ev.Op == model.OpJoin:
		key := syncKey{ev.Op == model.OpJoin, t, ev.Target}
		if _, ok := nx.sync[key]; !ok {
			nx.sync[key] = at
		}
		if ev.Op == model.OpFork {
			nx.fj.Fork(t, ev.Target, at)
		} else {
			nx.fj.Join(t, ev.Target, nx.w.VC[ev.Target][ev.Target])
			nx.joined[t] = append(nx.joined[t], joinAt{nx.epoch[t], ev.Target, append([]int64(nil), nx.w.VC[ev.Target]...)})
		}
		nx.epoch[t]++
	case ev.Op.IsAccess():
		nx.note(ev, at, before)
	}
}

// note indexes access ev of thread t at edge at (its event starting at
// position before).
func (nx *Indexer) note(ev *trace.Event, at, before int64) {
	t := ev.Thread
	nt := &nx.th[t]
	c := class{t: t, write: ev.Op == model.OpWrite, epoch: nx.epoch[t]}
	c.first = member{f: at, y0: nt.freeAt(before), line: ev.Line}
	if len(nt.stack) == 0 {
		c.first.z, c.ctx = nx.w.VC[t][t], nx.intern(lockContext{})
		c.last = c.first
		nx.insert(ev.Target, c)
		return
	}
	top := nt.stack[len(nt.stack)-1]
	key := pendingKey{ev.Target, c.write, top, nt.acqs, c.epoch}
	if i, ok := nx.pendIdx[t][key]; ok {
		nx.pend[t][i].c.last = c.first // the last of the class so far
		return
	}
	pc := nx.pc[t]
	if pc == nil || pc.top != top || pc.acqs != nt.acqs {
		if nx.charge(2 * len(nt.inner)); nx.size > nx.limit {
			return // the pass stops here (Index), undecided
		}
		pc = &pendingContext{top: top, acqs: nt.acqs, ctx: lockContext{held: nt.held(), back: nt.backward()},
			secs: append([]*section(nil), nt.stack...)}
		nx.pc[t] = pc
		nx.work += int64(len(pc.ctx.back) + len(pc.secs))
		nx.charge(len(pc.ctx.held) + 2*len(pc.secs))
	}
	c.last = c.first
	nx.pendIdx[t][key] = len(nx.pend[t])
	nx.pend[t] = append(nx.pend[t], pending{v: ev.Target, c: c, pc: pc})
	nx.size++
}

// flush indexes thread t's pending accesses, whose sections are all
// released by position z.
func (nx *Indexer) flush(t int, z int64) {
	nx.forwards(t)
	var last *pendingContext
	var ctx *lockContext
	for _, p := range nx.pend[t] {
		if p.pc != last {
			last = p.pc
			ctx = nx.intern(last.ctx)
		}
		p.c.first.z, p.c.last.z, p.c.ctx = z, z, ctx
		nx.insert(p.v, p.c)
	}
	nx.pend[t] = nx.pend[t][:0]
	nx.pc[t] = nil
	clear(nx.pendIdx[t])
}

// forwards sets the forward history of each of thread t's pending
// contexts: going back from the last, the log's acquires after a context
// are its first acquire of each lock after it.
func (nx *Indexer) forwards(t int) {
	log := nx.acqLog[t]
	nx.acqLog[t] = log[:0]
	if len(log) == 0 {
		return // no acquire after any pending access: every forward history is empty
	}
	first := make(map[int32]int64)
	j := len(log) - 1
	var last *pendingContext
	for i := len(nx.pend[t]) - 1; i >= 0; i-- {
		pc := nx.pend[t][i].pc
		if pc == last {
			continue
		}
		last = pc
		for ; j >= 0 && log[j].n >= pc.acqs; j-- {
			first[log[j].lock] = log[j].n
		}
		pc.ctx.fwd = forward(first, pc.secs)
		nx.work += int64(len(first))
		nx.charge(2 * len(pc.ctx.fwd))
	}
}

// intern is the one context with c's content.
func (nx *Indexer) intern(c lockContext) *lockContext {
	h := uint64(len(c.held))
	mix := func(x int32) { h = (h^uint64(uint32(x)))*0x100000001b3 + 0x9E3779B97F4A7C15 }
	for _, l := range c.held {
		mix(l)
	}
	for _, hs := range [2][]lockDepth{c.back, c.fwd} {
		mix(int32(len(hs)))
		for _, p := range hs {
			mix(p.lock)
			mix(p.depth)
		}
	}
	for _, d := range nx.ctxs[h] {
		if slices.Equal(d.held, c.held) && slices.Equal(d.back, c.back) && slices.Equal(d.fwd, c.fwd) {
			return d
		}
	}
	d := &c
	nx.ctxs[h] = append(nx.ctxs[h], d)
	return d
}

// finish indexes what waits at the end of the pass: a section never
// released counts as released at the thread's end (this only adds runs:
// see docs/predict.md).
func (nx *Indexer) finish() {
	for t := range nx.pend {
		nx.flush(t, nx.w.VC[t][t])
	}
}

// NotNested says why the locking is not nested ("": it is); the decision
// does not apply then.
func (nx *Indexer) NotNested() string { return nx.bad }

// ends is each thread's edges, once the pass is over.
func (nx *Indexer) ends() []int64 {
	out := make([]int64, len(nx.w.VC))
	for t := range out {
		out[t] = nx.w.VC[t][t]
	}
	return out
}

// insert adds c to variable v's classes, or makes it its class's access.
// A variable has a few classes (16 at most on BenchmarkPredictPairLocked's
// synthetic trace), so they are scanned; a map takes over for a variable with many.
func (nx *Indexer) insert(v int32, c class) {
	list := nx.idx[v]
	i := -1
	if len(list) <= 32 {
		for j := range list {
			if d := &list[j]; d.ctx == c.ctx && d.t == c.t && d.write == c.write && d.epoch == c.epoch {
				i = j
				break
			}
		}
	} else if j, ok := nx.keys[classKey{v, c.t, c.epoch, c.write, c.ctx}]; ok {
		i = int(j)
	}
	if i >= 0 {
		list[i].last = c.last
		return
	}
	nx.idx[v] = append(list, c)
	nx.size++
	if n := len(nx.idx[v]); n > 32 {
		if n == 33 { // the variable's map starts now
			for j, d := range nx.idx[v][:32] {
				nx.keys[classKey{v, d.t, d.epoch, d.write, d.ctx}] = int32(j)
			}
		}
		nx.keys[classKey{v, c.t, c.epoch, c.write, c.ctx}] = int32(n - 1)
	}
}

// MaxSize bounds the classes and pending accesses of the first pass
// (about 100 bytes each), and the lock sets and histories of their
// contexts (charge): beyond it the decision stops, undecided. The six
// real traces have 4,600 to 322,000.
const MaxSize = 4_000_000

// charge counts n words (int32) of contexts' lock sets and histories, or
// of the acquire log, in size: 25 words a unit of MaxSize. A history
// is bounded by the locks, not by the trace: in a long section with many
// inner locks (one for each object of a loop, say) each stretch between
// acquires has its own, and together they grow with the square of the
// section.
func (nx *Indexer) charge(n int) {
	nx.words += n
	nx.size += int64(nx.words / 25)
	nx.words %= 25
}

// workCheck is how much work (histories made in the first pass, lookups
// in the second) between two looks at the deadline and the limits,
// besides proj.SpoolEach's every 4,096 events: one access deep in nested
// sections makes a history as long as the depth.
const workCheck = 1 << 16

// Index runs the first pass over the spool; false when stopped (the
// deadline, or limit: MaxSize unless predict's options set another).
func Index(s *proj.Summary, sp *proj.Spool, limit int64, stop func() bool) (*Indexer, bool, error) {
	nx := newIndexer(s)
	nx.limit = limit
	over := func() bool { return stop() || nx.size > limit }
	next := int64(workCheck)
	whole, err := proj.SpoolEach(sp, over, func(ev *trace.Event) bool {
		nx.step(ev)
		if nx.size > limit {
			return false
		}
		if nx.work >= next { // deep nesting: long histories a step
			next = nx.work + workCheck
			return !over()
		}
		return true
	})
	if err != nil || !whole {
		return nil, false, err
	}
	nx.finish()
	return nx, true, nil
}
