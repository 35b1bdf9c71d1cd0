package fsm

import "encoding/binary"

// FSM is the finite-state serializability monitor (the paper's reference [7],
// Farzan and Madhusudan, CAV 2008): it reads a run one event at a time and
// reports the event at which the run's conflict graph first gets a cycle,
// keeping state bounded by the number of threads k and of letters, not by the
// run's length. docs/monitor.md gives the argument; in short, for every
// thread T it keeps
//
//   - acc[T]: the letters of cur(T), T's latest transaction;
//   - D[T]: the letters of the completed transactions reachable from cur(T);
//   - R[T][X]: cur(T) ~> cur(X) in the conflict graph (transitively closed);
//   - depth[T]: begin/end nesting, and whether T has started a transaction.
//
// Invariants (while no cycle): R[T][T] is false, and R[T][X] implies
// R[T] ⊇ R[X] and D[T] ⊇ D[X]. The state is one flat
// slice of words, so engines copy it (State) and hash it with
// AppendKey. A latest transaction stays cur(T) after its end until T begins
// the next one (it retires lazily); that changes nothing, as it gets no more
// events either way.
type FSM struct {
	a      *Alphabet
	w, rw  int // words per letter set, per reachability row
	stride int // words per thread
	st     []uint64
	hit    []bool // scratch: threads whose transaction gets a new out-edge
}

// Word layout of one thread's block; the violated flag is word 0 of st.
const (
	offStatus = 0 // depth (low 32 bits) | started (bit 32)
	offAcc    = 1
	started   = uint64(1) << 32
	depthMask = started - 1
)

// New returns the monitor of the empty run over alphabet a.
func New(a *Alphabet) *FSM {
	k := a.threads
	m := &FSM{a: a, w: a.words, rw: (k + 63) / 64}
	m.stride = 1 + 2*m.w + m.rw
	m.st = make([]uint64, 1+k*m.stride)
	m.hit = make([]bool, k)
	return m
}

// Alphabet is the monitor's alphabet.
func (m *FSM) Alphabet() *Alphabet { return m.a }

// Violated reports whether the run so far is not conflict-serializable.
func (m *FSM) Violated() bool { return m.st[0] != 0 }

// State is the monitor's state as words. It aliases the monitor: copy it
// before stepping again.
func (m *FSM) State() []uint64 { return m.st }

// ForgetReach clears D[t] and R[t][*], the reach of t's latest transaction,
// keeping its letters. Engines call it when that transaction will make no
// further event with a letter another thread can conflict with (no shared
// access, and with lock edges no lock, fork or join event, before its end):
// its reach is then read by nothing that decides a verdict. It is read
// only by the cycle check and edge step of its own later events (of which
// there are none that could meet another transaction's letters; its
// remaining begin/end events conflict only with thread(t) and fork(t),
// whose edges into it already exist, a fork preceding the forked thread's
// events), and every transaction reaching it keeps its own copy. Merging
// states that differ only there shrinks the product the engine explores.
func (m *FSM) ForgetReach(t int) {
	clear64(m.down(t))
	clear64(m.reach(t))
}

// Use makes the monitor work in place on st, a state of the same length as
// State (an engine's own copy of it): Step then updates st directly.
func (m *FSM) Use(st []uint64) {
	if len(st) != len(m.st) {
		panic("monitor: FSM.Use with a state of the wrong length")
	}
	m.st = st
}

// AppendKey appends a compact canonical encoding of the state to b: equal
// states, and only they, give equal keys. Words are written as uvarints,
// since most are zero or small.
func (m *FSM) AppendKey(b []byte) []byte {
	if m.Violated() {
		return append(b, 0xff)
	}
	for _, x := range m.st[1:] {
		b = binary.AppendUvarint(b, x)
	}
	return b
}

func (m *FSM) base(t int) int           { return 1 + t*m.stride }
func (m *FSM) status(t int) *uint64     { return &m.st[m.base(t)+offStatus] }
func (m *FSM) acc(t int) []uint64       { b := m.base(t) + offAcc; return m.st[b : b+m.w] }
func (m *FSM) down(t int) []uint64      { b := m.base(t) + offAcc + m.w; return m.st[b : b+m.w] }
func (m *FSM) reach(t int) []uint64     { b := m.base(t) + offAcc + 2*m.w; return m.st[b : b+m.rw] }
func (m *FSM) reaches(s, t int) bool    { return m.reach(s)[t/64]&(1<<(uint(t)%64)) != 0 }
func (m *FSM) setReach(s, t int)        { m.reach(s)[t/64] |= 1 << (uint(t) % 64) }
func (m *FSM) depth(t int) uint64       { return *m.status(t) & depthMask }
func (m *FSM) setDepth(t int, d uint64) { p := m.status(t); *p = *p&^depthMask | d }
func (m *FSM) hasStarted(t int) bool    { return *m.status(t)&started != 0 }
func (m *FSM) markStarted(t int)        { *m.status(t) |= started }

// Step steps the monitor with an event of thread t whose letters are l (from
// Alphabet.Of); it reports whether the run is now not serializable. Once a
// cycle has closed the monitor stays violated.
func (m *FSM) Step(t int, l *Letters) bool {
	if m.Violated() {
		return true
	}
	switch d := m.depth(t); l.Kind {
	case KindBegin:
		if d == 0 {
			m.startTxn(t, l)
		} else {
			m.addEvent(t, l) // a nested begin is an event of the outer transaction
		}
		m.setDepth(t, d+1)
	case KindEnd:
		// An end is an event of its transaction too: it adds no same-thread
		// edge that the begin did not, but with lock edges a fork of t made
		// after t began (a malformed trace) conflicts with it.
		if d > 0 {
			m.addEvent(t, l)
			m.setDepth(t, d-1)
		}
	case KindEvent:
		if d == 0 { // a unary transaction: begin; event; end
			m.startTxn(t, l)
		} else {
			m.addEvent(t, l)
		}
	}
	return m.Violated()
}

// startTxn makes a new transaction cur(t) whose first event has letters l.
// Step (1) of the design: the old cur(t) retires, so every S that reaches it
// adds its letters to D[S] (S keeps reaching cur(t) by program order). A
// first event closes no cycle: the new transaction has no out-edge yet.
func (m *FSM) startTxn(t int, l *Letters) {
	if m.hasStarted(t) {
		old := m.acc(t)
		for s := 0; s < m.a.threads; s++ {
			if s != t && m.reaches(s, t) {
				union(m.down(s), old)
			}
		}
	}
	m.markStarted(t)
	clear64(m.acc(t))
	clear64(m.down(t))
	clear64(m.reach(t))
	m.edgesInto(t, l.Mask)
	union(m.acc(t), l.Own)
}

// addEvent adds a non-first event of cur(t). Step (2): it closes a cycle iff
// it conflicts with a transaction u that cur(t) already reaches, i.e. with a
// letter of D[t] or of acc[X] for some X with R[t][X].
func (m *FSM) addEvent(t int, l *Letters) {
	if meets(m.down(t), l.Mask) {
		m.st[0] = 1
		return
	}
	for x := 0; x < m.a.threads; x++ {
		if m.reaches(t, x) && meets(m.acc(x), l.Mask) {
			m.st[0] = 1
			return
		}
	}
	m.edgesInto(t, l.Mask)
	union(m.acc(t), l.Own)
}

// edgesInto is step (3): the event with conflict mask mask adds edges u ->
// cur(t) from every earlier transaction u with a conflicting letter. Every
// current transaction cur(S) that reaches such a u (u = cur(S) itself, a
// completed one in D[S], or cur(X) with R[S][X]) now reaches cur(t) and all
// that cur(t) reaches. All S are found before any row changes, and since R is
// transitively closed, whoever reaches S is among them too.
func (m *FSM) edgesInto(t int, mask []uint64) {
	k := m.a.threads
	for s := 0; s < k; s++ {
		m.hit[s] = s != t && m.reachesLetter(s, mask)
	}
	for s := 0; s < k; s++ {
		if !m.hit[s] {
			continue
		}
		m.setReach(s, t)
		rs, rt := m.reach(s), m.reach(t)
		for i := range rs {
			rs[i] |= rt[i]
		}
		union(m.down(s), m.down(t))
	}
}

// reachesLetter reports whether cur(s) is, or reaches, a transaction with a
// letter in mask.
func (m *FSM) reachesLetter(s int, mask []uint64) bool {
	if !m.hasStarted(s) {
		return false
	}
	if meets(m.acc(s), mask) || meets(m.down(s), mask) {
		return true
	}
	for x := 0; x < m.a.threads; x++ {
		if m.reaches(s, x) && meets(m.acc(x), mask) {
			return true
		}
	}
	return false
}
