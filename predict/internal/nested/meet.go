package nested

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// The second pass of the linear two-thread decision (index.go): every
// access e2 of an open transaction meets its variable's classes.

// firstAccess is T1's first access (or first write) of a variable in its open
// transaction, with what the conditions need of it: its last lock-free
// position, the sections it held and T1's acquisitions by then (which
// locks it had acquired inside each: thread.lastBefore).
type firstAccess struct {
	e1, line int64
	epoch    int32 // T1's forks and joins before e1
	free     int64
	acqs     int64
	secs     []*section
}

// snapshot is a thread's last snapshot of its sections.
type snapshot struct {
	top  *section
	acqs int64
	secs []*section
}

// firsts is a variable's first access and first write in a transaction.
// (values in the transaction's map: one allocation fewer per variable).
type firsts struct {
	any, write       firstAccess
	hasAny, hasWrite bool
}

// Find is a pattern that passed the conditions: T1's e1 and e2, T2's f
// (edges), T1's last lock-free position before e1 (s) and before e2 (p1),
// T2's before f (y0) and after it (z), and the context C.
type Find struct {
	T1, T2         int
	E1, E2, F      int64
	s, p1, y0, z   int64
	caseA          bool
	end1, end2     int64 // T1's and T2's edges
	join1, join2   int64 // T1's join of T2, T2's of T1 (-1: none)
	fork1, fork2   int64 // T1's fork of T2, T2's of T1 (-1: none)
	lineE1, lineE2 int64
	lineF          int64
	ep1, ep2       int32    // the epochs of T1 and T2 whose joins the context runs
	nx             *Indexer // the first pass, for the context
	ctx            []int64  // the context C, once the pattern is tried
}

// Meeter is the second pass.
type Meeter struct {
	w     *hb.Walk
	nx    *Indexer
	th    []thread
	first []map[int32]firsts
	snap  []*snapshot // per thread: its last sections snapshot
	idx   [][]class
	sync  map[syncKey]int64
	fj    *hb.FJ
	epoch []int32 // per thread: its forks and joins so far
	ends  []int64 // each thread's edges
	// work counts classes met and lock pairs looked up; beyond limit (64
	// per event on average) the pass ends, undecided.
	work, limit int64
	stop        func() bool // the deadline
	scratch     []int32     // barred's
}

// NewMeeter is the second pass after nx, ending when stop says so.
func NewMeeter(s *proj.Summary, nx *Indexer, stop func() bool) *Meeter {
	k := len(s.Threads)
	m := &Meeter{limit: 64*s.Events + 1_000_000, stop: stop, w: hb.NewWalk(k, len(s.Locks), true), nx: nx, th: make([]thread, k), first: make([]map[int32]firsts, k), snap: make([]*snapshot, k), idx: nx.idx,
		sync: nx.sync, fj: nx.fj, epoch: make([]int32, k), ends: nx.ends()}
	m.w.ForkVC = nx.w.ForkVC // every fork, for the contexts
	for t := range m.th {
		m.th[t].hist = map[int32][]int64{}
	}
	return m
}

// Step takes one event and calls found for each pattern it closes (an
// access e2 meets one class at most once); found returns false to stop.
// It reports false when found did or the pass is over.
func (m *Meeter) Step(ev *trace.Event, found func(Find) bool) bool {
	t := ev.Thread
	at := m.w.Step(ev)
	nt := &m.th[t]
	switch {
	case ev.Op == model.OpAcquire:
		nt.acquire(ev.Target, at)
		m.work++
	case ev.Op == model.OpRelease:
		nt.release(ev.Target, at)
	case ev.Op == model.OpFork || ev.Op == model.OpJoin:
		m.epoch[t]++
	case ev.Op == model.OpBegin:
		if m.first[t] == nil || len(m.first[t]) > 64 {
			m.first[t] = map[int32]firsts{}
		} else {
			clear(m.first[t])
		}
	case ev.Op.IsAccess() && m.w.Open[t]:
		ok := m.meet(ev, at, found)
		m.noteFirst(ev, at)
		return ok
	}
	return true
}

// noteFirst records e1 candidates: the transaction's first access and
// first write of the variable.
func (m *Meeter) noteFirst(ev *trace.Event, at int64) {
	t := ev.Thread
	fs := m.first[t][ev.Target]
	if fs.hasAny && (fs.hasWrite || ev.Op != model.OpWrite) {
		return
	}
	nt := &m.th[t]
	nf := firstAccess{e1: at, line: ev.Line, free: nt.freeAt(at), epoch: m.epoch[t], acqs: nt.acqs}
	if n := len(nt.stack); n > 0 {
		// The sections change only at an acquire or a release: share them
		// with the last access that saw the same.
		if sn := m.snap[t]; sn != nil && sn.top == nt.stack[n-1] && sn.acqs == nt.acqs && len(sn.secs) == n {
			nf.secs = sn.secs
		} else {
			nf.secs = append([]*section(nil), nt.stack...)
			m.snap[t] = &snapshot{nt.stack[n-1], nt.acqs, nf.secs}
		}
		nt.snapA = nt.acqs
	}
	if !fs.hasAny {
		fs.any, fs.hasAny = nf, true
	}
	if ev.Op == model.OpWrite && !fs.hasWrite {
		fs.write, fs.hasWrite = nf, true
	}
	m.first[t][ev.Target] = fs
}

// meet checks access e2 (edge at) of T1 against its variable's classes.
func (m *Meeter) meet(ev *trace.Event, at int64, found func(Find) bool) bool {
	t1 := int(ev.Thread)
	fs, ok := m.first[t1][ev.Target]
	if !ok {
		return true
	}
	nt := &m.th[t1]
	p1 := nt.freeAt(at)
	list := m.idx[ev.Target]
	m.work += int64(len(list))
	for i := range list {
		if i&1023 == 1023 && m.Over() { // a variable may have millions of classes
			return false
		}
		c := &list[i]
		e1 := &fs.any
		if !c.write {
			if ev.Op != model.OpWrite || !fs.hasWrite {
				continue
			}
			e1 = &fs.write
		}
		if int(c.t) == t1 {
			continue
		}
		mem, ok := m.member(t1, c, e1, at)
		if !ok {
			continue
		}
		t2 := int(c.t)
		caseA := p1 > e1.e1
		if !caseA {
			bar, looked := m.barred(e1, nt, c)
			m.work += looked
			if bar {
				continue
			}
		}
		ep1, ep2 := m.contextEpochs(t1, c, at)
		f := Find{T1: t1, T2: t2, E1: e1.e1, E2: at, F: mem.f, s: e1.free, p1: p1, y0: mem.y0, z: mem.z,
			caseA: caseA, lineE1: e1.line, lineE2: ev.Line, lineF: mem.line, nx: m.nx,
			end1: m.ends[t1], end2: m.ends[t2], join1: m.syncAt(true, t1, t2), join2: m.syncAt(true, t2, t1),
			fork1: m.syncAt(false, t1, t2), fork2: m.syncAt(false, t2, t1), ep1: ep1, ep2: ep2}
		if !found(f) {
			return false
		}
	}
	return true
}

// contextEpochs are the epochs of T1 and T2 whose joins a pattern's
// context runs: T1's before e2; T2's before f, or all of them when T1
// joins T2 before e2 (T2 then runs to its end).
func (m *Meeter) contextEpochs(t1 int, c *class, e2 int64) (int32, int32) {
	ep2 := c.epoch
	if q := m.syncAt(true, t1, int(c.t)); q >= 0 && q < e2 {
		ep2 = 1 << 30
	}
	return m.epoch[t1], ep2
}

// context is the witness's context C: what happens before T1's and T2's
// forks and before the ends of the other threads either joins on its way
// (contextEpochs), in the observed order: a join of vector clocks, so
// down-closed. It is computed only for a pattern that is tried (conc
// predict --all meets many).
func (f *Find) context() []int64 {
	nx := f.nx
	c := nx.w.Context(f.T1, f.T2)
	for _, side := range [2]struct {
		t, other int
		epoch    int32
	}{{f.T1, f.T2, f.ep1}, {f.T2, f.T1, f.ep2}} {
		for _, j := range nx.joined[side.t] {
			if j.epoch < side.epoch && int(j.u) != side.other {
				hb.Join(c, j.vc)
			}
		}
	}
	return c
}

// member is the access of class c that a pattern with T1's e1 and e2
// takes: the first of the class that forks and joins allow to run as e1 <
// f < e2 (neither f precedes e1 nor e2 precedes f in every run,
// hb.FJ), or else the last; false when neither is. Two members are
// enough because a class's accesses share an epoch of T2: the bound on f
// from T1's side is a count of T2's edges, which the last member passes
// if any member does, and the bound on e2 is the epoch's alone.
func (m *Meeter) member(t1 int, c *class, e1 *firstAccess, e2 int64) (member, bool) {
	if e2 < m.fj.Before(c.t, c.epoch, int32(t1)) {
		return member{}, false
	}
	bound := m.fj.Before(int32(t1), e1.epoch, c.t)
	switch {
	case c.first.f >= bound:
		return c.first, true
	case c.last.f >= bound:
		return c.last, true
	}
	return member{}, false
}

// syncAt is the edge of t's fork (join) of u, -1 when there is none.
func (m *Meeter) syncAt(join bool, t, u int) int64 {
	if q, ok := m.sync[syncKey{join, int32(t), int32(u)}]; ok {
		return q
	}
	return -1
}

// Meet runs the second pass; found is called for every pattern until
// it returns false. It reports whether the pass read the whole trace.
func Meet(s *proj.Summary, sp *proj.Spool, nx *Indexer, stop func() bool, found func(Find) bool) (bool, error) {
	m := NewMeeter(s, nx, stop)
	return proj.SpoolEach(sp, m.Over, func(ev *trace.Event) bool {
		return m.Step(ev, found)
	})
}

// Over reports that the pass must end: the deadline or the work limit.
// proj.SpoolEach asks every 4,096 events, and meet every 1,024 classes, so
// that one event meeting many classes cannot run far past either.
func (m *Meeter) Over() bool {
	return m.work > m.limit || m.stop()
}
