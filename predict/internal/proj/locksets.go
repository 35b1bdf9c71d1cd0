package proj

import (
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/profiles"
	"github.com/conc-dev/conc/trace"
)

// Most transactions of a locked program keep their shared accesses inside
// one critical section, and so does every conflicting access of the other
// threads (two-phase locking of one lock, as Eraser's lock sets see it).
// Then no reordering that respects the locks is unserializable, without lock
// edges. Say transaction T keeps its cross-thread accesses inside one
// critical section of lock l_T, and every access of another thread that
// conflicts with one of them holds l_T. In any run that respects the locks
// no such access falls between T's first and last cross-thread access (T
// holds l_T all that while), so T's accesses form a window [first_T,
// last_T] that conflicting accesses of other threads stay out of (a
// transaction with one such access has a window of one point). Give each
// transaction φ(T) = first_T (its first event if it has none). A conflict
// edge T → U between threads goes from an access e of T to a later f of U;
// e is outside U's window and before f, so before it: φ(T) <= e < first_U =
// φ(U). Program order keeps φ increasing within a thread, since T's events
// all precede those of the next transaction. So φ strictly increases along
// every edge, and the conflict graph of every run is acyclic. Which locks an
// event holds is fixed by its thread's projection, so the test needs only
// the trace: the first pass keeps the lock sets (summary.go), one more
// pass over the spool tests the transactions, to the first that fails. It
// proves serializable; when it does not apply, nothing is concluded.

// LockSet is a set of the first 64 locks: a lock beyond counts as never
// held, which only makes the proof apply less.
type LockSet uint64

func (ls *LockSet) Add(l int32) {
	if l >= 0 && l < 64 {
		*ls |= 1 << l
	}
}

func (ls *LockSet) Remove(l int32) {
	if l >= 0 && l < 64 {
		*ls &^= 1 << l
	}
}

// heldSets reads, per thread and relevant letter it uses, the locks held
// at every one of the thread's accesses with that letter (Eraser's
// candidate set), which the first pass keeps (threadSum.held), and the
// guards derived from them, computed for the letters the transactions
// test only (most traces fail the test early, and the guards of every
// thread and letter cost as much as a pass over a trace of 10^6 events).
type heldSets struct {
	s     *Summary
	u     *Users
	guard [][]LockSet // per thread and letter, once known (done)
	done  [][]bool
}

// has reports whether thread t uses relevant letter l.
func (hs *heldSets) has(t, l int) bool {
	return hs.s.Threads[t].FirstOf(profiles.Letter(l)) != 0 && hs.u.Relevant(int32(t), profiles.Letter(l))
}

// held is thread t's lock set of letter l.
func (hs *heldSets) held(t, l int) LockSet { return hs.s.Threads[t].HeldAt(profiles.Letter(l)) }

// ProtectedByLocks reports whether every transaction passes the critical
// section test above (without lock edges only; the caller checks that).
func (s *Summary) ProtectedByLocks(sp *Spool, u *Users) (bool, error) {
	k := len(s.Threads)
	hs := &heldSets{s: s, u: u, guard: make([][]LockSet, k), done: make([][]bool, k)}
	for t := range k {
		hs.guard[t] = make([]LockSet, len(s.Threads[t].Span))
		hs.done[t] = make([]bool, len(s.Threads[t].Span))
	}
	return s.sectionsHold(sp, u, hs)
}

// guardOf is the locks every other thread holds at every access that
// conflicts with thread t's letter l, computed on first use.
func (hs *heldSets) guardOf(t int32, l profiles.Letter) LockSet {
	if !hs.done[t][l] {
		hs.guard[t][l], hs.done[t][l] = hs.conflicting(int(t), int(l)), true
	}
	return hs.guard[t][l]
}

// conflicting is the intersection of the lock sets of the other threads'
// letters that conflict with thread t's letter l (all locks if none).
func (hs *heldSets) conflicting(t, l int) LockSet {
	out := ^LockSet(0)
	x, write := l/2, l%2 == 1
	for u := range hs.s.Threads {
		if u == t {
			continue
		}
		if hs.has(u, 2*x+1) { // u writes x
			out &= hs.held(u, 2*x+1)
		}
		if write && hs.has(u, 2*x) { // u reads x, t writes it
			out &= hs.held(u, 2*x)
		}
	}
	return out
}

// sectionsHold is the pass over the spool: every transaction with two or
// more relevant accesses keeps them in one critical section of a lock that
// guards them all.
func (s *Summary) sectionsHold(sp *Spool, u *Users, hs *heldSets) (bool, error) {
	k := len(s.Threads)
	now, cand := make([]LockSet, k), make([]LockSet, k)
	count := make([]int, k) // relevant accesses of the open transaction
	open := make([]bool, k)
	r := sp.Reader()
	var ev trace.Event
	for {
		if err := r.Next(&ev); err == io.EOF {
			return true, nil
		} else if err != nil {
			return false, err
		}
		t := ev.Thread
		switch ev.Op {
		case model.OpBegin, model.OpEnd:
			count[t], open[t] = 0, ev.Op == model.OpBegin
		case model.OpAcquire:
			now[t].Add(ev.Target)
		case model.OpRelease:
			now[t].Remove(ev.Target)
			cand[t].Remove(ev.Target) // a later access is in another section
		case model.OpRead, model.OpWrite:
			l := LetterOf(&ev)
			if !open[t] || !u.Relevant(t, l) {
				continue // a unary access is a transaction of one access
			}
			c := now[t] & hs.guardOf(t, l)
			if count[t] > 0 {
				c &= cand[t]
			}
			cand[t] = c
			count[t]++
			if count[t] >= 2 && c == 0 {
				return false, nil
			}
		}
	}
}
