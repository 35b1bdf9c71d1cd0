package atomicity

import (
	"sort"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// Options configure a Tracker.
type Options struct {
	// LockEdges adds release → acquire and fork/join to the order, as conc
	// monitor's --lock-edges does.
	LockEdges bool
	// OnBroken, if set, is handed each broken transaction once its end is
	// known (or at Finish, if it is still open), in that order; the result
	// then keeps none.
	OnBroken func(*Broken)
	// MaxBroken bounds the broken transactions kept in the result (all are
	// counted); 0 means no bound.
	MaxBroken int
}

// Result is the tracker's answer: the broken transactions, by begin line
// (capped by MaxBroken) and how many there are.
type Result struct {
	Broken []Broken
	Count  int64
}

// source is an event that later events of other threads may be ordered
// after, with its thread's clock just after it (a snapshot: never
// changed). A nil clk means no event.
type source struct {
	ev  trace.Event
	clk clock
}

// variable holds the events a new access to it is ordered after: its last
// write and the reads since, one per thread (a thread's later read knows
// its earlier ones).
type variable struct {
	w     source
	reads []source
}

// thread is a thread's state: its clock, the snapshot of it at the
// current version (nil until a record needs one), its open transaction
// (nil outside one) with the nesting depth, its last event (a join's
// source) and, with lock edges, its fork before its first event.
type thread struct {
	c       clock
	snap    clock
	depth   int32
	tx      *txn
	last    trace.Event
	started bool
	pending []source
}

// Tracker decides per-transaction atomicity over a trace, one event at a
// time, in trace order.
type Tracker struct {
	opts    Options
	threads []thread
	vars    []variable
	locks   []source
	free    []*txn // ended transactions, for reuse
	slab    clock  // what is left of the current slab of snapshots
	res     Result
}

// New starts a tracker on the empty trace.
func New(opts Options) *Tracker { return &Tracker{opts: opts} }

// StepAll steps through evs.
func (k *Tracker) StepAll(evs []trace.Event) {
	for i := range evs {
		k.Step(&evs[i])
	}
}

// Step adds one event; nested begin/end pairs flatten to the outermost.
// Reads and writes, most of a trace, take the short way.
func (k *Tracker) Step(ev *trace.Event) {
	t := ev.Thread
	if int(t) >= len(k.threads) || ev.Op >= model.OpFork {
		k.growThreads(ev)
	}
	th := &k.threads[t]
	if !th.started || len(th.pending) > 0 {
		k.first(th, ev)
	}
	switch ev.Op {
	case model.OpRead:
		v := k.variable(ev.Target)
		if v.w.clk != nil && v.w.ev.Thread != t && k.receive(th, ev, &v.w) {
			k.changed(th, t)
		}
		v.read(source{*ev, k.snapshot(th)})
	case model.OpWrite:
		k.write(th, ev)
	default:
		k.other(th, ev)
	}
	if k.opts.LockEdges {
		th.last = *ev // a join's source
	}
}

// first starts a thread at its first event (version 1: version 0 is what
// everybody knows of every thread) and orders the event after the fork
// of its thread (with lock edges).
func (k *Tracker) first(th *thread, ev *trace.Event) {
	t := ev.Thread
	if !th.started {
		th.c = th.c.grown(int(t) + 1)
		th.c[t], th.started = 1, true
	}
	news := false
	for i := range th.pending {
		news = k.receive(th, ev, &th.pending[i]) || news
	}
	th.pending = th.pending[:0]
	if news {
		k.changed(th, t)
	}
}

// write orders a write after its variable's last write and the reads
// since, and makes it the last write.
func (k *Tracker) write(th *thread, ev *trace.Event) {
	t := ev.Thread
	v := k.variable(ev.Target)
	news := false
	if v.w.clk != nil && v.w.ev.Thread != t {
		news = k.receive(th, ev, &v.w)
	}
	for i := range v.reads {
		if v.reads[i].ev.Thread != t {
			news = k.receive(th, ev, &v.reads[i]) || news
		}
	}
	if news {
		k.changed(th, t)
	}
	v.w, v.reads = source{*ev, k.snapshot(th)}, v.reads[:0]
}

// other steps the events that are not accesses: with lock edges an
// acquire comes after the lock's last release and a join after the
// joined thread's last event; a release and a fork are sources for later
// events; begin and end open and close the thread's transaction.
func (k *Tracker) other(th *thread, ev *trace.Event) {
	t := ev.Thread
	switch ev.Op {
	case model.OpBegin:
		if th.depth++; th.depth == 1 {
			k.open(th, ev)
		}
	case model.OpEnd:
		if th.depth > 0 {
			if th.depth--; th.depth == 0 {
				k.close(th, ev.Line)
			}
		}
	case model.OpAcquire:
		if l := k.lock(ev.Target); k.opts.LockEdges && l.clk != nil && l.ev.Thread != t && k.receive(th, ev, l) {
			k.changed(th, t)
		}
	case model.OpRelease:
		if k.opts.LockEdges {
			*k.lock(ev.Target) = source{*ev, k.snapshot(th)}
		}
	case model.OpFork:
		if u := &k.threads[ev.Target]; k.opts.LockEdges && ev.Target != t {
			u.pending = append(u.pending, source{*ev, k.snapshot(th)})
		}
	case model.OpJoin:
		if u := &k.threads[ev.Target]; k.opts.LockEdges && u.started && ev.Target != t {
			s := source{u.last, k.snapshot(u)}
			if k.receive(th, ev, &s) {
				k.changed(th, t)
			}
		}
	}
}

// growThreads makes room for the event's thread and, for fork and join,
// its target, before any pointer into the table is taken.
func (k *Tracker) growThreads(ev *trace.Event) {
	n := ev.Thread
	if ev.Op == model.OpFork || ev.Op == model.OpJoin {
		n = max(n, ev.Target)
	}
	for int(n) >= len(k.threads) {
		k.threads = append(k.threads, thread{})
	}
}

// receive orders ev after s: first the check of Theorem 2 (s knows ev's
// open transaction, so the transaction is broken), then the join of s's
// clock into th's. It tells whether th learned anything.
func (k *Tracker) receive(th *thread, ev *trace.Event, s *source) bool {
	t, u := ev.Thread, s.ev.Thread
	if x := th.tx; x != nil && x.broken == nil && s.clk.knows(t, x.version) {
		x.broken = x.explain(ev, &s.ev)
	}
	if th.c.knows(u, s.clk.at(u)) {
		return false // th knows s's clock already
	}
	k.join(th, ev, s)
	return true
}

// join merges s's clock into th's. A thread that learns of another's open
// transaction for the first time tells the transaction by which edge.
func (k *Tracker) join(th *thread, ev *trace.Event, s *source) {
	c := th.c.grown(len(s.clk))
	th.c = c
	for i, v := range s.clk {
		if v <= c[i] {
			continue
		}
		if x := k.threads[i].tx; x != nil && int32(i) != ev.Thread && c[i] < x.version && v >= x.version {
			x.learn(ev.Thread, ev, &s.ev)
		}
		c[i] = v
	}
}

// changed notes that th's clock changed: a new version if the current
// one was exported.
func (k *Tracker) changed(th *thread, t int32) {
	if th.snap != nil {
		k.bump(th, t)
	}
}

// bump starts a new version of th: its clock changed (or a transaction
// begins) after a snapshot of it was taken, so that snapshot is no longer
// its clock. While no snapshot of the current version exists nobody knows
// it, and the version can stand for the changed clock too.
func (k *Tracker) bump(th *thread, t int32) {
	th.c = th.c.grown(int(t) + 1)
	th.c[t]++
	th.snap = nil
}

// snapshot is th's clock at its current version, copied once per version.
// Snapshots are cut from a shared slab (a few per allocation); a thread
// always has an entry of its own (start), so none is empty.
func (k *Tracker) snapshot(th *thread) clock {
	if th.snap != nil {
		return th.snap
	}
	return k.cut(th)
}

// cut copies th's clock into the slab.
func (k *Tracker) cut(th *thread) clock {
	{
		n := len(th.c)
		if len(k.slab)+n > cap(k.slab) {
			k.slab = make(clock, 0, max(slabLen, n))
		}
		at := len(k.slab)
		k.slab = append(k.slab, th.c...)
		th.snap = k.slab[at : at+n : at+n]
	}
	return th.snap
}

// slabLen is the entries of one slab of snapshots: small, since a slab
// lives as long as any snapshot cut from it (a variable's last write can
// keep one for the whole trace).
const slabLen = 256

// read keeps r as its thread's latest read since the last write.
func (v *variable) read(r source) {
	for i := range v.reads {
		if v.reads[i].ev.Thread == r.ev.Thread {
			v.reads[i] = r
			return
		}
	}
	v.reads = append(v.reads, r)
}

func (k *Tracker) variable(x int32) *variable {
	for int(x) >= len(k.vars) {
		k.vars = append(k.vars, variable{})
	}
	return &k.vars[x]
}

func (k *Tracker) lock(l int32) *source {
	for int(l) >= len(k.locks) {
		k.locks = append(k.locks, source{})
	}
	return &k.locks[l]
}

// open starts th's transaction at its begin ev, at a new version.
func (k *Tracker) open(th *thread, ev *trace.Event) {
	if th.snap != nil {
		k.bump(th, ev.Thread)
	}
	x := k.newTxn()
	x.thread, x.version, x.begin = ev.Thread, th.c[ev.Thread], *ev
	th.tx = x
}

// close ends th's transaction at line end, handing it over if broken.
func (k *Tracker) close(th *thread, end int64) {
	x := th.tx
	th.tx = nil
	if x.broken != nil {
		x.broken.End = end
		k.emit(x.broken)
	}
	x.broken, x.known = nil, x.known[:0]
	k.free = append(k.free, x)
}

func (k *Tracker) newTxn() *txn {
	if n := len(k.free); n > 0 {
		x := k.free[n-1]
		k.free = k.free[:n-1]
		return x
	}
	return &txn{}
}

// emit counts b and keeps it or hands it over.
func (k *Tracker) emit(b *Broken) {
	k.res.Count++
	if k.opts.OnBroken != nil {
		k.opts.OnBroken(b)
		return
	}
	if k.opts.MaxBroken == 0 || len(k.res.Broken) < k.opts.MaxBroken {
		k.res.Broken = append(k.res.Broken, *b)
	}
}

// Count is how many transactions are broken so far (open ones included).
func (k *Tracker) Count() int64 {
	n := k.res.Count
	for i := range k.threads {
		if x := k.threads[i].tx; x != nil && x.broken != nil {
			n++
		}
	}
	return n
}

// Finish hands over the open broken transactions and returns the result,
// sorted by begin line. The tracker must not be stepped afterwards.
func (k *Tracker) Finish() Result {
	for i := range k.threads {
		if x := k.threads[i].tx; x != nil && x.broken != nil {
			k.emit(x.broken)
			x.broken = nil
		}
	}
	sort.Slice(k.res.Broken, func(i, j int) bool { return k.res.Broken[i].Begin < k.res.Broken[j].Begin })
	return k.res
}
