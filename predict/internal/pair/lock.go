package pair

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
// the other). The witness is verified like every other (internal/proj/gate.go);
// one that fails is no answer.
//
// So a first pass indexes, per variable, the accesses f of every thread by
// (thread, write, acq(f)) (the first of each, a few per thread and
// variable), and a second pass meets every access e2 that follows an access
// of the same variable in its transaction with the index: O(index entries of
// v) per such access, memory O(threads × variables), not the trace's length.

// access is an indexed access f: its thread, whether it writes, the locks
// its thread acquired since it last held none (at edge y0), its edge and
// line.
type access struct {
	t     int32
	write bool
	acq   proj.LockSet
	f, y0 int64
	z     int64 // the thread's next point after f holding no lock (0: none yet)
	line  int64
}

// indexCap bounds the accesses indexed per variable.
const indexCap = 32

// Indexer is the first pass (IndexLocked): it indexes, per variable, the
// accesses, and meets each access with the accesses indexed so far on the
// way (a pattern whose f comes first in the trace is as good as one whose
// f comes later; the threads' forks are then known, since f and e2 follow
// them), so a trace with an early pattern is not read to its end.
type Indexer struct {
	w    *Walk
	idx  [][]access
	keys [][]uint64
	m    txnVars
	pend [][][2]int32 // per thread: indexed accesses without their z yet
	seen int64        // events taken by Step
}

// NewIndexer is the first pass before its first event.
func NewIndexer(s *proj.Summary) *Indexer {
	return &Indexer{w: NewWalk(len(s.Threads), len(s.Locks)), idx: make([][]access, len(s.Vars)),
		keys: make([][]uint64, len(s.Vars)), m: newTxnVars(len(s.Threads)), pend: make([][][2]int32, len(s.Threads))}
}

// Step takes one event; it reports a pattern the event closes.
func (px *Indexer) Step(ev *trace.Event) (LockFind, bool) {
	w := px.w
	px.seen++
	at := w.Step(ev)
	if f, ok := px.m.meet(w, px.idx, ev, at); ok {
		return f, true
	}
	px.index(ev, at)
	return LockFind{}, false
}

// Add takes one event into the index without meeting it (predict --all
// meets every access with the whole index in a second pass instead).
func (px *Indexer) Add(ev *trace.Event) { px.index(ev, px.w.Step(ev)) }

// Seen is the number of events Step took: all of the trace's, when the
// index is complete.
func (px *Indexer) Seen() int64 { return px.seen }

// index adds ev (at edge at, already stepped) to the index.
func (px *Indexer) index(ev *trace.Event, at int64) {
	w := px.w
	t := ev.Thread
	lp := w.locks[t]
	if lp.depth == 0 { // a lock-free point: z of the accesses waiting for one
		for _, x := range px.pend[t] {
			px.idx[x[0]][x[1]].z = w.VC[t][t]
		}
		px.pend[t] = px.pend[t][:0]
	}
	if ev.Op.IsAccess() && !lp.joined {
		a := access{t: t, write: ev.Op == model.OpWrite, acq: lp.acq, f: at, y0: lp.y0, line: ev.Line}
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

// Index is what the second pass needs of a complete first pass.
func (px *Indexer) Index() *Index {
	return &Index{idx: px.idx, forkVC: px.w.ForkVC}
}

// indexPass is the first pass on its own.
func indexPass(s *proj.Summary, sp *proj.Spool, stop func() bool) (*Indexer, LockFind, bool, error) {
	px := NewIndexer(s)
	f, hit, whole, err := firstHit(sp, stop, px.Step)
	switch {
	case err != nil:
		return nil, LockFind{}, false, err
	case hit:
		return nil, f, true, nil
	case !whole:
		return nil, LockFind{}, false, nil
	}
	return px, LockFind{}, false, nil
}

// addAccess keeps the first access of each (thread, write, acq) class. The
// classes are compared by a key of 8 bytes (keys[v], beside list), since
// this runs for every access: two classes with one key keep only the first,
// which can only miss a pattern.
func addAccess(list []access, keys []uint64, a access) ([]access, []uint64) {
	if len(list) >= indexCap {
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

// LockFind is a lock-aware pattern: T1's E1, E2 and T2's F (edges), Y0
// and the context Ctx.
type LockFind struct {
	T1, T2        int
	E1, E2, F, Y0 int64
	// P1 > 0: the second schedule, T1 stopping at its lock-free point P1
	// and T2 running on to its lock-free point Z.
	P1, Z         int64
	Ctx           []int64
	LineE2, LineF int64
}

// firstAccess is, in T1's open transaction, its first access of a variable
// and its first write of it (-1 if none).
type firstAccess struct{ any, write int64 }

// Index is what the first pass leaves for the second: the index and the
// forks' clocks.
type Index struct {
	idx    [][]access
	forkVC [][]int64
}

// IndexLocked is the first pass: a pattern found on the way, or the index
// for the second (nil when stop cut the pass short).
func IndexLocked(s *proj.Summary, sp *proj.Spool, stop func() bool) (*Index, LockFind, bool, error) {
	px, f, ok, err := indexPass(s, sp, stop)
	if err != nil || ok || px == nil {
		return nil, f, ok, err
	}
	return px.Index(), LockFind{}, false, nil
}

// FindLocked is the second pass: it meets every access e2 with the whole
// index and returns the first pattern found.
func FindLocked(s *proj.Summary, sp *proj.Spool, ix *Index, stop func() bool) (LockFind, bool, error) {
	f, hit, _, err := firstHit(sp, stop, NewMeeter(s, ix).Step)
	return f, hit, err
}

// Meeter is the second pass's state: it meets every access e2 with the
// whole index; predict --all steps it on after each hit.
type Meeter struct {
	w   *Walk
	m   txnVars
	idx [][]access
}

// NewMeeter is the second pass over ix before its first event.
func NewMeeter(s *proj.Summary, ix *Index) *Meeter {
	w := NewWalk(len(s.Threads), len(s.Locks))
	w.ForkVC = ix.forkVC // every fork, for the contexts
	return &Meeter{w: w, m: newTxnVars(len(s.Threads)), idx: ix.idx}
}

// Step takes one event; it reports a pattern whose e2 it is.
func (mt *Meeter) Step(ev *trace.Event) (LockFind, bool) {
	return mt.m.meet(mt.w, mt.idx, ev, mt.w.Step(ev))
}

// txnVars is, per thread, the first accesses of its open transaction.
type txnVars []map[int32]firstAccess

func newTxnVars(k int) txnVars { return make(txnVars, k) }

// meet follows ev (already stepped by w, at its edge at) in the open
// transactions and checks an access e2 against the index.
func (m txnVars) meet(w *Walk, idx [][]access, ev *trace.Event, at int64) (LockFind, bool) {
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
	case ev.Op.IsAccess() && w.Open[t] && !w.locks[t].joined:
		// Noted after the meeting (e2 is not its own e1), and on a hit
		// too: conc predict --all goes on after it.
		f, ok := meetIndex(w, idx[ev.Target], m[t], ev, at, w.locks[t])
		noteAccess(m[t], ev, at)
		return f, ok
	}
	return LockFind{}, false
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
func meetIndex(w *Walk, list []access, m map[int32]firstAccess, ev *trace.Event, at int64, lp lockPos) (LockFind, bool) {
	fa, ok := m[ev.Target]
	if !ok {
		return LockFind{}, false
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
		f := LockFind{T1: t1, T2: t2, E1: e1, E2: at, F: a.f, Y0: a.y0, LineE2: ev.Line, LineF: a.line}
		switch {
		case a.acq&lp.held == 0:
		case lp.y0 > e1 && a.z > 0:
			f.P1, f.Z = lp.y0, a.z
		default:
			continue
		}
		f.Ctx = w.Context(t1, t2) // only a pattern's: this runs for every index entry
		return f, true
	}
	return LockFind{}, false
}
