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
// after, with what it knows: the slots of the open transactions whose
// begin comes before it (→), as of its line (valid). Line 0: no event.
type source struct {
	ev trace.Event
	m  mask
}

// variable holds the events a new access to it is ordered after: its last
// write and the reads since, one per thread (a thread's later read knows
// its earlier ones).
type variable struct {
	w     source
	reads []source
}

// thread is a thread's state: what its latest event knows (m: only slots
// of open transactions, as closing a transaction clears its slot in the
// threads that know of it), its open transaction (nil outside one) with the nesting depth, its
// latest event (a join's source; Line 0 before its first) and, with lock
// edges, its fork before its first event.
type thread struct {
	m       mask
	depth   int32
	tx      *txn
	last    trace.Event
	pending []source
}

// Tracker decides per-transaction atomicity over a trace, one event at a
// time, in trace order. Every open transaction has a slot; a mask of slots
// says which open transactions' begins come before an event. A slot is
// used again once its transaction ends, so a mask's slot counts only if
// the slot's transaction began no later than the event that holds the
// mask (valid): knowledge of an earlier occupant is not knowledge of this
// one.
type Tracker struct {
	opts     Options
	threads  []thread
	vars     []variable
	locks    []source
	slots    []*txn  // per slot: its open transaction, nil while free
	opened   []int64 // per slot: the begin line of its latest transaction
	free     []int32 // free slots
	occupied mask    // the slots in use
	spare    []*txn  // ended transactions, for reuse
	res      Result
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
	if len(th.pending) > 0 {
		for i := range th.pending {
			k.receive(th, ev, &th.pending[i])
		}
		th.pending = th.pending[:0]
	}
	switch ev.Op {
	case model.OpRead:
		v := k.variable(ev.Target)
		if v.w.ev.Line != 0 && v.w.ev.Thread != t {
			k.receive(th, ev, &v.w)
		}
		v.read(source{*ev, th.m.frozen()})
	case model.OpWrite:
		k.write(th, ev)
	default:
		k.other(th, ev)
	}
	if k.opts.LockEdges {
		th.last = *ev // a join's source
	}
}

// write orders a write after its variable's last write and the reads
// since, and makes it the last write.
func (k *Tracker) write(th *thread, ev *trace.Event) {
	t := ev.Thread
	v := k.variable(ev.Target)
	if v.w.ev.Line != 0 && v.w.ev.Thread != t {
		k.receive(th, ev, &v.w)
	}
	for i := range v.reads {
		if v.reads[i].ev.Thread != t {
			k.receive(th, ev, &v.reads[i])
		}
	}
	v.w, v.reads = source{*ev, th.m.frozen()}, v.reads[:0]
}

// other steps the events that are not accesses: with lock edges an
// acquire comes after the lock's last release and a join after the
// joined thread's latest event; a release and a fork are sources for
// later events; begin and end open and close the thread's transaction.
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
		if l := k.lock(ev.Target); k.opts.LockEdges && l.ev.Line != 0 && l.ev.Thread != t {
			k.receive(th, ev, l)
		}
	case model.OpRelease:
		if k.opts.LockEdges {
			*k.lock(ev.Target) = source{*ev, th.m.frozen()}
		}
	case model.OpFork:
		if u := &k.threads[ev.Target]; k.opts.LockEdges && ev.Target != t {
			u.pending = append(u.pending, source{*ev, th.m.frozen()})
		}
	case model.OpJoin:
		if u := &k.threads[ev.Target]; k.opts.LockEdges && u.last.Line != 0 && ev.Target != t {
			s := source{u.last, u.m}
			k.receive(th, ev, &s)
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

// receive orders ev, of th, after s, an event of another thread: first
// the check of Theorem 2 (s knows ev's open transaction, which is then
// broken), then what s knows becomes th's. Most sources bring nothing new
// and not the check's slot: one word tells, before any validation.
func (k *Tracker) receive(th *thread, ev *trace.Event, s *source) {
	x := th.tx
	if x != nil && x.broken != nil {
		x = nil // broken already: no check
	}
	if s.m.hi == nil && (x == nil || x.slot < 64) {
		var own uint64
		if x != nil {
			own = 1 << x.slot
		}
		if s.m.lo&k.occupied.lo&^(th.m.lo&^own) == 0 {
			return
		}
	}
	k.receiveSlow(th, x, ev, s)
}

// receiveSlow is receive with s's mask validated (x: th's transaction if
// it is still to be checked).
func (k *Tracker) receiveSlow(th *thread, x *txn, ev *trace.Event, s *source) {
	m := k.valid(s.m, s.ev.Line)
	if x != nil && m.has(x.slot) {
		x.broken = x.explain(ev, &s.ev)
	}
	m.each(func(slot int32) {
		if th.m.has(slot) {
			return
		}
		th.m.add(slot)
		if y := k.slots[slot]; y.thread != ev.Thread {
			y.learn(ev.Thread, ev, &s.ev)
		}
	})
}

// valid is m as of line at: without the slots free now or opened again
// since (m.hi is copied before it changes: a record's never does).
func (k *Tracker) valid(m mask, at int64) mask {
	m.lo &= k.occupied.lo
	for w := m.lo; w != 0; w &= w - 1 {
		if s := trailing(w); k.opened[s] > at {
			m.lo &^= 1 << s
		}
	}
	if m.hi == nil {
		return m
	}
	m.hi = append([]uint64(nil), m.hi...)
	m.each(func(s int32) {
		if s >= 64 && (k.slots[s] == nil || k.opened[s] > at) {
			m.remove(s)
		}
	})
	return m
}

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

// open starts th's transaction at its begin ev, in a free slot.
func (k *Tracker) open(th *thread, ev *trace.Event) {
	x := k.newTxn()
	x.thread, x.begin = ev.Thread, *ev
	if n := len(k.free); n > 0 {
		x.slot = k.free[n-1]
		k.free = k.free[:n-1]
	} else {
		x.slot = int32(len(k.slots))
		k.slots, k.opened = append(k.slots, nil), append(k.opened, 0)
	}
	k.slots[x.slot], k.opened[x.slot] = x, ev.Line
	k.occupied.add(x.slot)
	th.m.add(x.slot)
	th.tx = x
}

// close ends th's transaction at line end, handing it over if broken.
func (k *Tracker) close(th *thread, end int64) {
	x := th.tx
	th.tx = nil
	th.m.remove(x.slot)
	for _, l := range x.known {
		k.threads[l.thread].m.remove(x.slot)
	}
	k.occupied.remove(x.slot)
	k.slots[x.slot] = nil
	k.free = append(k.free, x.slot)
	if x.broken != nil {
		x.broken.End = end
		k.emit(x.broken)
	}
	x.broken, x.known = nil, x.known[:0]
	k.spare = append(k.spare, x)
}

func (k *Tracker) newTxn() *txn {
	if n := len(k.spare); n > 0 {
		x := k.spare[n-1]
		k.spare = k.spare[:n-1]
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
