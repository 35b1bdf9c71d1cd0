package predict

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// The linear two-thread decision under nested locking (docs/predict.md,
// "Two threads and one variable, in linear time"). It decides whether some
// run has a cycle of conflicts on one variable through the transactions of
// two threads: exactly the patterns e1 <po e2 of one transaction A of T1
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
// run (pair_nested_witness.go) and verified like every other witness; one
// that is refused proves nothing either way.

// nestClass is an indexed access f of a thread: the last of its class.
type nestClass struct {
	t         int32
	epoch     int32 // the thread's forks and joins before f
	write     bool
	f, y0, z  int64 // f's edge; the thread's last lock-free position before it and first after it (its end when none)
	line      int64
	held      []int32    // the locks held at f, outermost first
	back, fwd [][2]int32 // the backward and forward acquisition histories at f
}

// nestPending is an access whose forward history is not known yet: it
// waits for its thread to hold no lock.
type nestPending struct {
	v    int32
	c    nestClass
	secs []*nestSection
	acqs int64
}

// pendKey tells pending accesses apart: two with one key are of one class.
type pendKey struct {
	v     int32
	write bool
	top   *nestSection
	acqs  int64
	epoch int32
}

// nestIndexer is the first pass.
type nestIndexer struct {
	w       *pairWalk
	th      []nestThread
	pend    [][]nestPending
	pendIdx []map[pendKey]int
	idx     [][]nestClass
	keys    map[string]int32
	buf     []byte
	bad     string // why the locking is not nested ("": it is)
	names   *summary
	epoch   []int32 // per thread: its forks and joins so far
	fj      *fjClocks
	// joined: per thread, its joins with the joined thread's observed
	// clock, which a witness's context must run to their end.
	joined [][]nestJoin
	sync   map[nestSync]int64 // the edge of each fork and join of a thread by another
}

// nestJoin is a join: the joining thread's epoch before it, the joined
// thread and its observed clock at its end.
type nestJoin struct {
	epoch int32
	u     int32
	vc    []int64
}

// nestSync is thread t's fork (or join) of thread u.
type nestSync struct {
	join bool
	t, u int32
}

func newNestIndexer(s *summary) *nestIndexer {
	k := len(s.threads)
	nx := &nestIndexer{w: newPairWalk(k, len(s.locks)), th: make([]nestThread, k), pend: make([][]nestPending, k),
		pendIdx: make([]map[pendKey]int, k), idx: make([][]nestClass, len(s.vars)), keys: map[string]int32{}, names: s,
		epoch: make([]int32, k), sync: map[nestSync]int64{}, fj: newFJClocks(k),
		joined: make([][]nestJoin, k)}
	for t := range nx.pendIdx {
		nx.pendIdx[t] = map[pendKey]int{}
	}
	return nx
}

// step takes one event of the first pass.
func (nx *nestIndexer) step(ev *trace.Event) {
	t := ev.Thread
	before := nx.w.vc[t][t]
	at := nx.w.step(ev)
	nt := &nx.th[t]
	switch {
	case ev.Op == model.OpAcquire:
		nt.acquire(ev.Target, at)
	case ev.Op == model.OpRelease:
		if !nt.release(ev.Target, at) && nx.bad == "" {
			nx.bad = fmt.Sprintf("thread %s releases %s at line %d", nx.names.threadNames[t], nx.names.locks[ev.Target], ev.Line)
			if n := len(nt.stack); n > 0 {
				nx.bad += fmt.Sprintf(" while holding %s, acquired after it", nx.names.locks[nt.stack[n-1].lock])
			}
		}
		if len(nt.stack) == 0 {
			nx.flush(int(t), at+1)
		}
	case ev.Op == model.OpFork || ev.Op == model.OpJoin:
		key := nestSync{ev.Op == model.OpJoin, t, ev.Target}
		if _, ok := nx.sync[key]; !ok {
			nx.sync[key] = at
		}
		if ev.Op == model.OpFork {
			nx.fj.fork(t, ev.Target, at)
		} else {
			nx.fj.join(t, ev.Target, nx.w.vc[ev.Target][ev.Target])
			nx.joined[t] = append(nx.joined[t], nestJoin{nx.epoch[t], ev.Target, append([]int64(nil), nx.w.vc[ev.Target]...)})
		}
		nx.epoch[t]++
	case ev.Op.IsAccess():
		nx.note(ev, at, before)
	}
}

// note indexes access ev of thread t at edge at (its event starting at
// position before).
func (nx *nestIndexer) note(ev *trace.Event, at, before int64) {
	t := ev.Thread
	nt := &nx.th[t]
	c := nestClass{t: t, write: ev.Op == model.OpWrite, f: at, y0: nt.freeAt(before), line: ev.Line, epoch: nx.epoch[t]}
	if len(nt.stack) == 0 {
		c.z = nx.w.vc[t][t]
		nx.insert(ev.Target, c)
		return
	}
	key := pendKey{ev.Target, c.write, nt.stack[len(nt.stack)-1], nt.acqs, c.epoch}
	if i, ok := nx.pendIdx[t][key]; ok {
		nx.pend[t][i].c.f, nx.pend[t][i].c.line = c.f, c.line // the last of the class
		return
	}
	c.held, c.back = nt.held(), nt.backward()
	nx.pendIdx[t][key] = len(nx.pend[t])
	nx.pend[t] = append(nx.pend[t], nestPending{v: ev.Target, c: c, secs: append([]*nestSection(nil), nt.stack...), acqs: nt.acqs})
}

// flush indexes thread t's pending accesses, whose sections are all
// released by position z.
func (nx *nestIndexer) flush(t int, z int64) {
	for _, p := range nx.pend[t] {
		p.c.z, p.c.fwd = z, forward(p.secs, p.acqs)
		nx.insert(p.v, p.c)
	}
	nx.pend[t] = nx.pend[t][:0]
	clear(nx.pendIdx[t])
}

// finish indexes what waits at the end of the pass: a section never
// released counts as released at the thread's end (this only adds runs:
// see docs/predict.md).
func (nx *nestIndexer) finish() {
	for t := range nx.pend {
		nx.flush(t, nx.w.vc[t][t])
	}
}

// ends is each thread's edges, once the pass is over.
func (nx *nestIndexer) ends() []int64 {
	out := make([]int64, len(nx.w.vc))
	for t := range out {
		out[t] = nx.w.vc[t][t]
	}
	return out
}

// insert adds c to variable v's classes, or makes it its class's access.
func (nx *nestIndexer) insert(v int32, c nestClass) {
	b := binary.AppendVarint(nx.buf[:0], int64(v))
	b = binary.AppendVarint(binary.AppendVarint(b, int64(c.t)), int64(c.epoch))
	if c.write {
		b = append(b, 1)
	}
	b = binary.AppendVarint(b, int64(len(c.held)))
	for _, l := range c.held {
		b = binary.AppendVarint(b, int64(l))
	}
	for _, h := range [2][][2]int32{c.back, c.fwd} {
		b = binary.AppendVarint(b, int64(len(h)))
		for _, p := range h {
			b = binary.AppendVarint(binary.AppendVarint(b, int64(p[0])), int64(p[1]))
		}
	}
	nx.buf = b
	if i, ok := nx.keys[string(b)]; ok {
		old := &nx.idx[v][i]
		old.f, old.y0, old.z, old.line = c.f, c.y0, c.z, c.line
		return
	}
	nx.keys[string(b)] = int32(len(nx.idx[v]))
	nx.idx[v] = append(nx.idx[v], c)
}

// nestIndex runs the first pass over the spool.
func (s *summary) nestIndex(sp *spool, stop func() bool) (*nestIndexer, bool, error) {
	nx := newNestIndexer(s)
	r := sp.reader()
	var ev trace.Event
	for n := 1; ; n++ {
		if err := r.next(&ev); err == io.EOF {
			nx.finish()
			return nx, true, nil
		} else if err != nil {
			return nil, false, err
		}
		nx.step(&ev)
		if n&4095 == 0 && stop() {
			return nil, false, nil
		}
	}
}
