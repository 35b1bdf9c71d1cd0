package predict

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// The lock-aware two-thread pattern with one access of the interrupting
// thread (docs/predict.md, "Two threads through their locks"). Thread T1
// accesses variable v twice in transaction A (e1 <po e2), thread T2
// accesses v at f, with e1 D f D e2 (f a write, or e1 and e2 writes). Let
// C be what must run before T1 and T2 start: the events that happen before
// their forks (vector clocks of the observed run, down-closed). The run
//
//	C in its observed order;
//	T2 up to y0, its last point before f holding no lock;
//	T1 up to just before e2 (through e1);
//	T2 from y0 through f;
//	T1's e2
//
// has the cycle A -> txn(f) -> A, and it respects the locks when the locks
// T2 acquires between y0 and f (acq(f)) are not held by T1 just before e2
// (held1): T2 holds nothing at y0, so T1's part never waits; T2's part waits
// only for a lock T1 holds, which is in held1; e2 is an access. Nothing else
// runs, so no other thread's lock is in the way, except those held at the
// end of C, and no join may be on the way (a joined thread must have
// finished): T1's part and T2's part are taken before each thread's first
// join. A second schedule covers T1 holding a lock before e2 that T2 needs:
// T1 stops at its last point p1 after e1 holding no lock, and T2 runs
// through f on to its next point z holding none (so neither ever waits for
// the other). The witness is verified like every other (internal/proj/gate.go); one that
// fails is no answer.
//
// So a first pass indexes, per variable, the accesses f of every thread by
// (thread, write, acq(f)) (the first of each, a few per thread and
// variable), and a second pass meets every access e2 that follows an access
// of the same variable in its transaction with the index: O(index entries of
// v) per such access, memory O(threads × variables), not the trace's length.

// pairAccess is an indexed access f: its thread, whether it writes, the
// locks its thread acquired since it last held none (at edge y0), its edge
// and line.
type pairAccess struct {
	t     int32
	write bool
	acq   proj.LockSet
	f, y0 int64
	z     int64 // the thread's next point after f holding no lock (0: none yet)
	line  int64
}

// pairIndexCap bounds the accesses indexed per variable.
const pairIndexCap = 32

// lockPos is one thread's lock state in a pass: the locks it holds, the
// locks acquired since it last held none and that point's edge, its
// nesting depth and whether it has joined a thread yet. Locks from
// bigLock on share the set's last bit (held while any of them is), so
// the sets only ever say more than the truth: a schedule they allow may
// still be refused by the verification, never one they forbid wrongly
// allowed.
type lockPos struct {
	held, acq proj.LockSet
	big       int // big locks held
	depth     int
	y0        int64
	joined    bool
}

const bigLock = 63

func (lp *lockPos) step(ev *trace.Event, edges int64) {
	switch l := ev.Target; {
	case ev.Op == model.OpAcquire:
		if l >= bigLock {
			l = bigLock
			lp.big++
		}
		lp.held.Add(l)
		lp.acq.Add(l)
		lp.depth++
	case ev.Op == model.OpRelease:
		if l >= bigLock {
			if lp.big--; lp.big <= 0 {
				lp.big = 0
				lp.held.Remove(bigLock)
			}
		} else {
			lp.held.Remove(l)
		}
		if lp.depth--; lp.depth <= 0 {
			lp.depth, lp.acq, lp.y0, lp.big, lp.held = 0, 0, edges, 0, 0
		}
	case ev.Op == model.OpJoin:
		lp.joined = true
	}
}

// pairWalk is pair_hb.go's hbWalk with the threads' lock states and their
// forks' clocks.
type pairWalk struct {
	hbWalk
	locks  []lockPos
	forkVC [][]int64 // per forked thread: the clock of its fork
}

func newPairWalk(k, locks int) *pairWalk {
	return &pairWalk{hbWalk: newHBWalk(k, locks), locks: make([]lockPos, k), forkVC: make([][]int64, k)}
}

// step is hbWalk.step, following the forks and the locks too.
func (w *pairWalk) step(ev *trace.Event) int64 {
	t := ev.Thread
	at := w.hbWalk.step(ev)
	if ev.Op == model.OpFork {
		w.forkVC[ev.Target] = append([]int64(nil), w.vc[ev.Target]...)
	}
	w.locks[t].step(ev, w.vc[t][t])
	return at
}

// context is C for threads t1 and t2: the join of their forks' clocks.
func (w *pairWalk) context(t1, t2 int) []int64 {
	c := make([]int64, len(w.vc))
	joinVC(c, w.forkVC[t1])
	joinVC(c, w.forkVC[t2])
	return c
}

// contextOf is context(t1, t2)[u], without building C.
func (w *pairWalk) contextOf(t1, t2, u int) int64 {
	var c int64
	for _, f := range [2][]int64{w.forkVC[t1], w.forkVC[t2]} {
		if f != nil {
			c = max(c, f[u])
		}
	}
	return c
}

// pairIndexer is the first pass (pairIndex): it indexes, per variable,
// the accesses, and meets each access with the accesses indexed so far on
// the way (a pattern whose f comes first in the trace is as good as one
// whose f comes later; the threads' forks are then known, since f and e2
// follow them), so a trace with an early pattern is not read to its end.
type pairIndexer struct {
	w    *pairWalk
	idx  [][]pairAccess
	keys [][]uint64
	m    txnVars
	pend [][][2]int32 // per thread: indexed accesses without their z yet
	seen int64        // events taken
}

func newPairIndexer(s *proj.Summary) *pairIndexer {
	return &pairIndexer{w: newPairWalk(len(s.Threads), len(s.Locks)), idx: make([][]pairAccess, len(s.Vars)),
		keys: make([][]uint64, len(s.Vars)), m: newTxnVars(len(s.Threads)), pend: make([][][2]int32, len(s.Threads))}
}

// step takes one event; it reports a pattern the event closes.
func (px *pairIndexer) step(ev *trace.Event) (pairLockFind, bool) {
	w := px.w
	px.seen++
	at := w.step(ev)
	if f, ok := px.m.meet(w, px.idx, ev, at); ok {
		return f, true
	}
	px.index(ev, at)
	return pairLockFind{}, false
}

// index adds ev (at edge at, already stepped) to the index.
func (px *pairIndexer) index(ev *trace.Event, at int64) {
	w := px.w
	t := ev.Thread
	lp := w.locks[t]
	if lp.depth == 0 { // a lock-free point: z of the accesses waiting for one
		for _, x := range px.pend[t] {
			px.idx[x[0]][x[1]].z = w.vc[t][t]
		}
		px.pend[t] = px.pend[t][:0]
	}
	if ev.Op.IsAccess() && !lp.joined {
		a := pairAccess{t: t, write: ev.Op == model.OpWrite, acq: lp.acq, f: at, y0: lp.y0, line: ev.Line}
		v, n := ev.Target, len(px.idx[ev.Target])
		px.idx[v], px.keys[v] = addAccess(px.idx[v], px.keys[v], a)
		switch {
		case len(px.idx[v]) == n:
		case lp.depth == 0:
			px.idx[v][n].z = at + 1
		default:
			px.pend[t] = append(px.pend[t], [2]int32{v, int32(n)})
		}
	}
}

// indexed is what the second pass needs of a complete first pass.
func (px *pairIndexer) indexed() *pairIndexed {
	return &pairIndexed{idx: px.idx, forkVC: px.w.forkVC}
}

// pairIndex is the first pass on its own.
func pairIndex(s *proj.Summary, sp *proj.Spool, stop func() bool) (*pairIndexer, pairLockFind, bool, error) {
	px := newPairIndexer(s)
	var f pairLockFind
	var hit bool
	whole, err := proj.SpoolEach(sp, stop, func(ev *trace.Event) bool {
		f, hit = px.step(ev)
		return !hit
	})
	switch {
	case err != nil:
		return nil, pairLockFind{}, false, err
	case hit:
		return nil, f, true, nil
	case !whole:
		return nil, pairLockFind{}, false, nil
	}
	return px, pairLockFind{}, false, nil
}

// addAccess keeps the first access of each (thread, write, acq) class. The
// classes are compared by a key of 8 bytes (keys[v], beside list), since
// this runs for every access: two classes with one key keep only the first,
// which can only miss a pattern.
func addAccess(list []pairAccess, keys []uint64, a pairAccess) ([]pairAccess, []uint64) {
	if len(list) >= pairIndexCap {
		return list, keys
	}
	key := (uint64(a.acq)*0x9E3779B97F4A7C15 ^ uint64(a.t)<<1) + 1
	if a.write {
		key ^= 1
	}
	for _, k := range keys {
		if k == key {
			return list, keys
		}
	}
	return append(list, a), append(keys, key)
}

// pairLockFind is a pattern of this file: T1's e1, e2 and T2's f (edges),
// y0 and the context C.
type pairLockFind struct {
	t1, t2        int
	e1, e2, f, y0 int64
	// p1 > 0: the second schedule, T1 stopping at its lock-free point p1
	// and T2 running on to its lock-free point z.
	p1, z         int64
	ctx           []int64
	lineE2, lineF int64
}

// firstAccess is, in T1's open transaction, its first access of a variable
// and its first write of it (-1 if none).
type firstAccess struct{ any, write int64 }

// pairIndexed is what the first pass leaves for the second: the index and
// the forks' clocks.
type pairIndexed struct {
	idx    [][]pairAccess
	forkVC [][]int64
}

// firstPairLock is the first pass (pairIndex): a pattern found on the way,
// or the index for the second.
func firstPairLock(s *proj.Summary, sp *proj.Spool, stop func() bool) (*pairIndexed, pairLockFind, bool, error) {
	px, f, ok, err := pairIndex(s, sp, stop)
	if err != nil || ok || px == nil {
		return nil, f, ok, err
	}
	return px.indexed(), pairLockFind{}, false, nil
}

// secondPairLock meets every access e2 with the whole index and returns
// the first pattern found.
func secondPairLock(s *proj.Summary, sp *proj.Spool, pi *pairIndexed, stop func() bool) (pairLockFind, bool, error) {
	w := newPairWalk(len(s.Threads), len(s.Locks))
	w.forkVC = pi.forkVC // every fork, for the contexts
	m := newTxnVars(len(s.Threads))
	var f pairLockFind
	var hit bool
	_, err := proj.SpoolEach(sp, stop, func(ev *trace.Event) bool {
		f, hit = m.meet(w, pi.idx, ev, w.step(ev))
		return !hit
	})
	return f, hit && err == nil, err
}

// txnVars is, per thread, the first accesses of its open transaction.
type txnVars []map[int32]firstAccess

func newTxnVars(k int) txnVars { return make(txnVars, k) }

// meet follows ev (already stepped by w, at its edge at) in the open
// transactions and checks an access e2 against the index.
func (m txnVars) meet(w *pairWalk, idx [][]pairAccess, ev *trace.Event, at int64) (pairLockFind, bool) {
	t := ev.Thread
	switch {
	case ev.Op == model.OpBegin:
		// The last transaction's map, unless it grew large (clear costs
		// its capacity); read only while the transaction is open.
		if m[t] == nil || len(m[t]) > 64 {
			m[t] = map[int32]firstAccess{}
		} else {
			clear(m[t])
		}
	case ev.Op.IsAccess() && w.open[t] && !w.locks[t].joined:
		// Noted after the meeting (e2 is not its own e1), and on a hit
		// too: conc predict --all goes on after it.
		f, ok := meetIndex(w, idx[ev.Target], m[t], ev, at, w.locks[t])
		noteAccess(m[t], ev, at)
		return f, ok
	}
	return pairLockFind{}, false
}

// noteAccess records an access in its transaction's first accesses.
func noteAccess(m map[int32]firstAccess, ev *trace.Event, at int64) {
	fa, ok := m[ev.Target]
	if !ok {
		fa = firstAccess{any: at, write: -1}
	}
	if ev.Op == model.OpWrite && fa.write < 0 {
		fa.write = at
	}
	m[ev.Target] = fa
}

// meetIndex checks T1's access e2 (edge at) against the indexed accesses
// of its variable, with either schedule: T1 waits just before e2 (holding
// held1) while T2 runs from y0 through f, when T2 acquires nothing held1
// holds; or T1 waits at its last lock-free point p1 after e1 while T2 runs
// from y0 through f on to its next lock-free point z (neither holds a lock
// when the other moves). The second is the classic two critical sections
// of one atomic method with another thread's section between them.
func meetIndex(w *pairWalk, list []pairAccess, m map[int32]firstAccess, ev *trace.Event, at int64, lp lockPos) (pairLockFind, bool) {
	fa, ok := m[ev.Target]
	if !ok {
		return pairLockFind{}, false
	}
	t1 := int(ev.Thread)
	for _, a := range list {
		e1 := fa.any
		if !a.write {
			e1 = fa.write
			if ev.Op != model.OpWrite {
				continue
			}
		}
		if int(a.t) == t1 || e1 < 0 {
			continue
		}
		t2 := int(a.t)
		if e1 < w.contextOf(t1, t2, t1) || a.y0 < w.contextOf(t1, t2, t2) {
			continue
		}
		f := pairLockFind{t1: t1, t2: t2, e1: e1, e2: at, f: a.f, y0: a.y0, lineE2: ev.Line, lineF: a.line}
		switch {
		case a.acq&lp.held == 0:
		case lp.y0 > e1 && a.z > 0:
			f.p1, f.z = lp.y0, a.z
		default:
			continue
		}
		f.ctx = w.context(t1, t2) // only a pattern's: this runs for every index entry
		return f, true
	}
	return pairLockFind{}, false
}
