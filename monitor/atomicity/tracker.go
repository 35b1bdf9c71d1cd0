package atomicity

import (
	"fmt"
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
	// MaxKnown bounds the ways the tracker remembers by which a thread
	// first learned of an open transaction (the paths are made of them):
	// with many transactions open at once they number threads × open
	// transactions. Past it the answer stays exact, but paths may be cut
	// (Broken.Cut). 0 means DefaultMaxKnown.
	MaxKnown int
	// MaxPath bounds the hops an explanation lists: the middle of a
	// longer path is left out (Broken.Elided). 0 means DefaultMaxPath.
	MaxPath int
}

// DefaultMaxPath is Options.MaxPath's default.
const DefaultMaxPath = 16

// DefaultMaxKnown is Options.MaxKnown's default: about 50 MiB of ways.
const DefaultMaxKnown = 1 << 20

// Result is the tracker's answer: the broken transactions, by begin line
// (capped by MaxBroken) and how many there are.
type Result struct {
	Broken []Broken
	Count  int64
	// Stopped, when not "", says why the tracker gave up before the
	// trace's end (its work budget): Broken and Count are then not the
	// answer.
	Stopped string
}

// rec is an event that later events of other threads may be ordered
// after (a variable's write or read, a lock's release), with what it
// knows: the slots of the open transactions whose begin comes before it,
// as of its line (see valid). Its op and target are its record's (a
// variable's last write, say). Line 0: no event.
type rec struct {
	line   int64
	m      mask
	thread int32
	loc    int32
}

// variable holds the events a new access to it is ordered after: its last
// write and the reads since, one per thread (a thread's later read knows
// its earlier ones).
type variable struct {
	w     rec
	reads []rec
	at    map[int32]int32 // reads' index by thread, once they are many
}

// fork is a fork event with what its thread knew, waiting for the forked
// thread's first event (lock edges).
type fork struct {
	ev trace.Event
	m  mask
}

// thread is a thread's state: what its latest event knows (m: only slots
// of open transactions, as closing a transaction clears its slot in the
// threads that know of it), its open transaction (nil outside one) with
// the nesting depth, own (the bit of its transaction's slot while that is
// below 64 and not yet broken: the check of every source), its latest
// event (a join's source, with lock edges; Line 0 before its first) and,
// with lock edges, its forks before its first event.
type thread struct {
	m       mask
	own     uint64
	tx      *txn
	depth   int32
	last    trace.Event
	pending []fork
}

// Tracker decides per-transaction atomicity over a trace, one event at a
// time, in trace order. Every open transaction has a slot; a mask of slots
// says which open transactions' begins come before an event. A slot is
// used again once its transaction ends, so a record's slot counts only if
// the slot's transaction began no later than the record's event (valid):
// knowledge of an earlier occupant is not knowledge of this one.
type Tracker struct {
	opts    Options
	threads []thread
	vars    []variable
	locks   []rec
	// readRels, posts: per lock its read releases since its last
	// acquire, per message its posts, one per thread (sync.go).
	readRels, posts []variable
	tokens          [][]rec // per token: its gives not yet taken, oldest first
	slots           []*txn  // per slot: its open transaction, nil while free
	opened          []int64 // per slot: the begin line of its latest transaction
	free            []int32 // free slots
	busy            mask    // the slots in use
	spare           []*txn  // ended transactions, for reuse
	known           int     // ways remembered (MaxKnown)
	events          int64   // events stepped
	work            int64   // slot-words and threads passed over in the slow paths (budget)
	res             Result
}

// New starts a tracker on the empty trace.
func New(opts Options) *Tracker {
	if opts.MaxKnown <= 0 {
		opts.MaxKnown = DefaultMaxKnown
	}
	if opts.MaxPath <= 0 {
		opts.MaxPath = DefaultMaxPath
	}
	return &Tracker{opts: opts}
}

// Step adds one event.
func (k *Tracker) Step(ev *trace.Event) { k.step(ev) }

// StepAll steps through evs; nested begin/end pairs flatten to the
// outermost. This is the tracker's innermost loop: reads, most of a
// trace, are handled in it. The budget is checked after every event, not
// once a batch: with a million transactions open at once, each of a
// batch's events may pass over all of them.
func (k *Tracker) StepAll(evs []trace.Event) {
	if k.res.Stopped != "" || k.overBudget() {
		return
	}
	k.events += int64(len(evs))
	limit := k.budget()
	for i := range evs {
		ev := &evs[i]
		t := ev.Thread
		if ev.Op != model.OpRead || int(t) >= len(k.threads) || int(ev.Target) >= len(k.vars) || len(k.threads[t].pending) > 0 {
			k.step(ev)
		} else { // a read by a known thread: no growth, no fork to wait for
			th := &k.threads[t]
			k.read(th, &k.vars[ev.Target], ev)
			if k.opts.LockEdges {
				th.last = *ev
			}
		}
		if k.work > limit {
			k.overBudget()
			return
		}
	}
}

// step adds any event.
func (k *Tracker) step(ev *trace.Event) {
	t := ev.Thread
	if int(t) >= len(k.threads) || ev.Op >= model.OpFork {
		k.growThreads(ev)
	}
	th := &k.threads[t]
	if len(th.pending) > 0 {
		k.forked(th, ev)
	}
	switch ev.Op {
	case model.OpRead:
		k.read(th, k.variable(ev.Target), ev)
	case model.OpWrite:
		k.write(th, ev)
	default:
		k.other(th, ev)
	}
	if k.opts.LockEdges {
		th.last = *ev // a join's source
	}
}

// read orders a read after its variable's last write, and keeps it as
// its thread's latest read since.
func (k *Tracker) read(th *thread, v *variable, ev *trace.Event) {
	if w := &v.w; w.thread != ev.Thread && w.line != 0 && w.m.news(th, k.busy.lo) {
		k.receive(th, ev, w, model.OpWrite, ev.Target)
	}
	v.read(rec{ev.Line, th.m.frozen(), ev.Thread, ev.Loc})
}

// write orders a write after its variable's last write and the reads
// since, and makes it the last write.
func (k *Tracker) write(th *thread, ev *trace.Event) {
	t := ev.Thread
	v := k.variable(ev.Target)
	if w := &v.w; w.thread != t && w.line != 0 && w.m.news(th, k.busy.lo) {
		k.receive(th, ev, w, model.OpWrite, ev.Target)
	}
	for i := range v.reads {
		if r := &v.reads[i]; r.thread != t && r.m.news(th, k.busy.lo) {
			k.receive(th, ev, r, model.OpRead, ev.Target)
		}
	}
	v.w, v.reads, v.at = rec{ev.Line, th.m.frozen(), t, ev.Loc}, v.reads[:0], nil
}

// read keeps r as its thread's latest read since the last write.
func (v *variable) read(r rec) {
	if v.at != nil {
		if i, ok := v.at[r.thread]; ok {
			v.reads[i] = r
		} else {
			v.at[r.thread] = int32(len(v.reads))
			v.reads = append(v.reads, r)
		}
		return
	}
	for i := range v.reads {
		if v.reads[i].thread == r.thread {
			v.reads[i] = r
			return
		}
	}
	v.reads = append(v.reads, r)
	if len(v.reads) > manyReads { // a thousand threads reading one variable: no scan per read
		v.at = make(map[int32]int32, len(v.reads))
		for i, x := range v.reads {
			v.at[x.thread] = int32(i)
		}
	}
}

// manyReads is how many reads since a write a variable scans for a
// thread's before it indexes them.
const manyReads = 32

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

func (k *Tracker) variable(x int32) *variable {
	for int(x) >= len(k.vars) {
		k.vars = append(k.vars, variable{})
	}
	return &k.vars[x]
}

func (k *Tracker) lock(l int32) *rec {
	for int(l) >= len(k.locks) {
		k.locks = append(k.locks, rec{})
	}
	return &k.locks[l]
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

// workPerEvent and workBase make the tracker's work budget: with
// thousands of transactions open at once, each thread that learns of all
// of them costs a pass over their slots, and the work grows with the
// square of the threads (30,000 threads, one open transaction each: 10⁹).
// Past the budget the tracker stops and says so, rather than hold up the
// conflict graph's answer, which does not depend on it.
const (
	workPerEvent = 64
	workBase     = 1 << 26
)

// budget is the work allowed for the events stepped so far.
func (k *Tracker) budget() int64 { return workBase + workPerEvent*k.events }

// overBudget stops the tracker once its work passes the budget.
func (k *Tracker) overBudget() bool {
	if k.work <= k.budget() {
		return false
	}
	k.res.Stopped = fmt.Sprintf("too many transactions open at once (%d slots) for the tracker's work budget", len(k.slots))
	return true
}

// Finish hands over the open broken transactions and returns the result,
// sorted by begin line. The tracker must not be stepped afterwards.
func (k *Tracker) Finish() Result {
	if k.res.Stopped != "" {
		return Result{Stopped: k.res.Stopped}
	}
	for i := range k.threads {
		if x := k.threads[i].tx; x != nil && x.broken != nil {
			k.emit(x.broken)
			x.broken = nil
		}
	}
	sort.Slice(k.res.Broken, func(i, j int) bool { return k.res.Broken[i].Begin < k.res.Broken[j].Begin })
	return k.res
}
