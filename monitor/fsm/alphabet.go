package fsm

import (
	"github.com/conc-dev/conc/model"
)

// Alphabet numbers the letters the finite-state monitor (FSM) remembers about
// a transaction: the kinds of its events that a later event of another
// transaction can conflict with (the paper's relation D, docs/spec.md §1):
//
//   - read(x), write(x) for every tracked variable x;
//   - thread(T) for every thread: every transaction of T carries it, so a later
//     event of T conflicts with all of T's earlier transactions, and (with lock
//     edges) a join of T conflicts with every transaction of T;
//   - with lock edges only, rel(l) for every tracked lock (a later acquire of l
//     conflicts with it) and fork(U) for every thread (every later event of U
//     conflicts with it).
//
// A letter set is a run of 64-bit words; Words is its length. A variable or
// lock that only one thread touches can be left untracked: its conflicts are
// all same-thread ones, which thread(T) covers already.
type Alphabet struct {
	threads   int
	lockEdges bool
	words     int
	read      []int32 // per variable: its read letter, or -1 when untracked
	write     []int32
	rel       []int32 // per lock: its release letter, or -1
	thread    []int32 // per thread
	fork      []int32 // per thread, or -1 without lock edges
}

// AlphabetConfig sizes an alphabet. SharedVars and SharedLocks, when not nil,
// say which variables and locks to track (nil tracks them all).
type AlphabetConfig struct {
	Threads, Vars, Locks int
	LockEdges            bool
	SharedVars           []bool
	SharedLocks          []bool
}

// NewAlphabet numbers the letters of c.
func NewAlphabet(c AlphabetConfig) *Alphabet {
	a := &Alphabet{threads: c.Threads, lockEdges: c.LockEdges}
	n := int32(0)
	next := func(track bool) int32 {
		if !track {
			return -1
		}
		n++
		return n - 1
	}
	tracked := func(sel []bool, i int) bool { return sel == nil || (i < len(sel) && sel[i]) }
	for x := 0; x < c.Vars; x++ {
		a.read = append(a.read, next(tracked(c.SharedVars, x)))
		a.write = append(a.write, next(tracked(c.SharedVars, x)))
	}
	for l := 0; l < c.Locks; l++ {
		a.rel = append(a.rel, next(c.LockEdges && tracked(c.SharedLocks, l)))
	}
	for t := 0; t < c.Threads; t++ {
		a.thread = append(a.thread, next(true))
		a.fork = append(a.fork, next(c.LockEdges))
	}
	a.words = int(n+63) / 64
	if a.words == 0 {
		a.words = 1
	}
	return a
}

// Kind says how an event moves the monitor.
type Kind uint8

const (
	KindNone  Kind = iota // not part of the schedule (skip; sync without lock edges)
	KindBegin             // ▷: opens a transaction (or nests one level deeper)
	KindEnd               // ◁: closes one nesting level
	KindEvent             // an event of the transaction (unary if none is open)
)

// Letters is what one event of one thread means to the monitor: Mask holds
// the letters of earlier events it conflicts with, Own those it adds to its
// own transaction. Engines precompute it once per automaton edge.
type Letters struct {
	Kind Kind
	Mask []uint64
	Own  []uint64
}

// Of computes the letters of event ev made by thread t. Every event of t
// conflicts with thread(t) (earlier transactions of t) and, with lock edges,
// with fork(t).
func (a *Alphabet) Of(t int, ev model.Event) Letters {
	l := Letters{Kind: KindEvent, Mask: make([]uint64, a.words), Own: make([]uint64, a.words)}
	set(l.Mask, a.thread[t])
	set(l.Mask, a.fork[t])
	set(l.Own, a.thread[t])
	switch ev.Op {
	case model.OpSkip:
		l.Kind = KindNone
	case model.OpBegin:
		l.Kind = KindBegin
	case model.OpEnd:
		l.Kind = KindEnd
	case model.OpRead:
		set(l.Mask, a.write[ev.Target])
		set(l.Own, a.read[ev.Target])
	case model.OpWrite:
		set(l.Mask, a.read[ev.Target])
		set(l.Mask, a.write[ev.Target])
		set(l.Own, a.write[ev.Target])
	default:
		a.syncLetters(&l, ev)
	}
	return l
}

// syncLetters fills the letters of a lock, fork or join event.
func (a *Alphabet) syncLetters(l *Letters, ev model.Event) {
	if !a.lockEdges {
		l.Kind = KindNone
		return
	}
	switch ev.Op {
	case model.OpAcquire:
		set(l.Mask, a.rel[ev.Target])
	case model.OpRelease:
		set(l.Own, a.rel[ev.Target])
	case model.OpFork:
		set(l.Own, a.fork[ev.Target])
	case model.OpJoin:
		set(l.Mask, a.thread[ev.Target])
	}
}

func set(s []uint64, i int32) {
	if i >= 0 {
		s[i/64] |= 1 << (uint(i) % 64)
	}
}

// meets reports whether two letter sets intersect.
func meets(a, b []uint64) bool {
	for i := range a {
		if a[i]&b[i] != 0 {
			return true
		}
	}
	return false
}

// union adds b to a.
func union(a, b []uint64) {
	for i := range a {
		a[i] |= b[i]
	}
}

func clear64(a []uint64) {
	for i := range a {
		a[i] = 0
	}
}
