package proj

import (
	"context"
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/profiles"
	"github.com/conc-dev/conc/trace"
)

// A straight-line thread's profiles (Definition 4) need no relation over
// pairs of letters for the links of a chain: numbering the thread's
// transactions 1, 2, … (a unary access is a transaction of its own), a
// thread can be entered by e1 and left by e2 (▷ e1 ◁, ▷ e1 e2 ◁, ▷ e2 e1 ◁
// or ▷ e1 ◁ ▷ e2 ◁) iff first(e1) <= last(e2), where first and last are the
// first and last transactions in which the letter occurs. So the first pass
// keeps, per thread, first and last for every letter: O(threads × variables)
// memory, whatever the trace's length.

// LetterSpan is the first and last transaction (numbered from 1) in which
// a thread uses a letter; 0 if it never does.
type LetterSpan struct {
	First, Last int32
}

// ThreadSum is what the first pass keeps of one thread.
type ThreadSum struct {
	Txn    int32        // transactions begun so far (unary ones included)
	Open   bool         // inside a begin … end
	Span   []LetterSpan // per letter: first and last transaction with it
	events int64        // trace events of the thread
	edges  int64        // edges of its projection automaton (a unary access is 3)
	// now and held are Eraser's lock sets (locksets.go), kept here so that
	// the critical-section proof needs no pass of its own: the locks held
	// now and, per letter, at every access with it so far. held is nil
	// until the thread first acquires a lock (a letter beyond its length
	// was only used holding none), so a trace without locks pays nothing.
	now  LockSet
	Held []LockSet
}

// Summary is the first pass's result: the names, the per-thread letter
// summaries, and which synchronisation the trace uses.
type Summary struct {
	Name        string
	Threads     []*ThreadSum
	ThreadNames []string
	Vars, Locks []string
	Msgs        []string // the messages of post and wait (docs/spec.md §3)
	Posts       []int    // per message: its posts, which each wait for it follows
	Events      int64
	Sync        bool          // some acq, rel, fork or join, or an ordering
	Orderings   bool          // some op of the ordering extension (docs/spec.md §3)
	lockUser    []int32       // per lock: its one thread, or -2 when shared
	Forker      map[int32]Ref // per forked thread: its fork event (thread, edge)
	Joined      []int32       // the threads some thread joins (with repeats)
}

// Collect is the first pass: it reads the whole trace, writes it to the
// spool and fills the summary. It stops with the context's error.
func Collect(ctx context.Context, r *trace.Reader, sp *Spool) (*Summary, error) {
	s := &Summary{Name: r.Name()}
	if err := s.fold(ctx, r, sp); err != nil {
		return nil, err
	}
	if err := sp.finish(); err != nil {
		return nil, err
	}
	s.ThreadNames = r.Threads().Names()
	s.Vars, s.Locks, s.Msgs = r.Vars().Names(), r.Locks().Names(), r.Msgs().Names()
	s.Posts = append(s.Posts, make([]int, len(s.Msgs)-len(s.Posts))...)
	for len(s.Threads) < len(s.ThreadNames) {
		s.Threads = append(s.Threads, &ThreadSum{})
	}
	return s, nil
}

// fold reads the trace (parsed a few batches ahead, trace.ReadAhead) into
// the spool and the summary.
func (s *Summary) fold(ctx context.Context, r *trace.Reader, sp *Spool) error {
	a := trace.ReadAhead(r.Read)
	defer a.Close()
	for {
		evs, err := a.Batch()
		for i := range evs {
			evs[i].Line += sp.Shift
			if err := sp.put(&evs[i]); err != nil {
				return err
			}
			s.step(&evs[i])
		}
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// step folds one event into the summary.
func (s *Summary) step(ev *trace.Event) {
	for int(ev.Thread) >= len(s.Threads) {
		s.Threads = append(s.Threads, &ThreadSum{})
	}
	th := s.Threads[ev.Thread]
	th.events++
	th.edges++
	s.Events++
	switch ev.Op {
	case model.OpBegin:
		th.Txn++
		th.Open = true
	case model.OpEnd:
		th.Open = false
	case model.OpRead, model.OpWrite:
		if !th.Open {
			th.Txn++
			th.edges += 2
		}
		th.See(LetterOf(ev), th.Txn)
	case model.OpAcquire:
		s.Sync = true
		s.useLock(ev.Target, ev.Thread)
		th.acquire(ev.Target)
	case model.OpRelease:
		s.Sync = true
		s.useLock(ev.Target, ev.Thread)
		th.now.Remove(ev.Target)
	case model.OpReadAcquire, model.OpReadRelease:
		s.Sync, s.Orderings = true, true
		s.useLock(ev.Target, ev.Thread)
	default:
		s.Sync = true
		s.Orderings = s.Orderings || ev.Op.IsExtension()
		if ev.Op == model.OpPost {
			for int(ev.Target) >= len(s.Posts) {
				s.Posts = append(s.Posts, 0)
			}
			s.Posts[ev.Target]++
		}
		if ev.Op == model.OpJoin {
			s.Joined = append(s.Joined, ev.Target)
		}
		if ev.Op == model.OpFork {
			if s.Forker == nil {
				s.Forker = map[int32]Ref{}
			}
			s.Forker[ev.Target] = Ref{int(ev.Thread), th.edges - 1}
		}
	}
}

// See records that letter l occurs in transaction txn.
func (th *ThreadSum) See(l profiles.Letter, txn int32) {
	if int(l) >= len(th.Span) {
		n := max(2*len(th.Span), int(l)+1, 16)
		th.Span = append(th.Span, make([]LetterSpan, n-len(th.Span))...)
	}
	sp := &th.Span[l] // first and last share a cache line
	first := sp.First == 0
	if first {
		sp.First = txn
	}
	sp.Last = txn
	if th.Held != nil {
		th.hold(l, first)
	}
}

// acquire adds lock l to the locks held now; the first acquire starts the
// per-letter lock sets, all empty for the letters used so far.
func (th *ThreadSum) acquire(l int32) {
	th.now.Add(l)
	if th.Held == nil {
		th.Held = make([]LockSet, len(th.Span))
	}
}

// hold intersects letter l's lock set with the locks held now (first: l's
// first access, whose lock set is those locks).
func (th *ThreadSum) hold(l profiles.Letter, first bool) {
	if int(l) >= len(th.Held) {
		th.Held = append(th.Held, make([]LockSet, len(th.Span)-len(th.Held))...)
	}
	if first {
		th.Held[l] = th.now
	} else {
		th.Held[l] &= th.now
	}
}

// HeldAt is the lock set of letter l: the locks held at every access
// with it (none for a letter the thread never uses).
func (th *ThreadSum) HeldAt(l profiles.Letter) LockSet {
	if int(l) < len(th.Held) {
		return th.Held[l]
	}
	return 0
}

func (s *Summary) useLock(l, t int32) {
	for int(l) >= len(s.lockUser) {
		s.lockUser = append(s.lockUser, -1)
	}
	switch u := s.lockUser[l]; {
	case u == -1:
		s.lockUser[l] = t
	case u != t:
		s.lockUser[l] = -2
	}
}

// LetterOf is the trace event's letter (profiles' numbering: 2v read, 2v+1
// write).
func LetterOf(ev *trace.Event) profiles.Letter {
	l := profiles.Letter(2 * ev.Target)
	if ev.Op == model.OpWrite {
		l++
	}
	return l
}

// FirstOf and lastOf read a thread's summary, 0 for a letter it never uses.
func (th *ThreadSum) FirstOf(l profiles.Letter) int32 {
	if int(l) < len(th.Span) {
		return th.Span[l].First
	}
	return 0
}

func (th *ThreadSum) LastOf(l profiles.Letter) int32 {
	if int(l) < len(th.Span) {
		return th.Span[l].Last
	}
	return 0
}

// SharedLock reports whether two threads use lock l: a lock of one thread
// never blocks and (its releases and acquires being in program order) adds
// no conflict, so the reduced program drops it.
func (s *Summary) SharedLock(l int32) bool { return int(l) < len(s.lockUser) && s.lockUser[l] == -2 }
