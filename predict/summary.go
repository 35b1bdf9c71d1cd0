package predict

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

// letterSpan is the first and last transaction (numbered from 1) in which
// a thread uses a letter; 0 if it never does.
type letterSpan struct {
	first, last int32
}

// threadSum is what the first pass keeps of one thread.
type threadSum struct {
	txn    int32        // transactions begun so far (unary ones included)
	open   bool         // inside a begin … end
	span   []letterSpan // per letter: first and last transaction with it
	events int64        // trace events of the thread
	edges  int64        // edges of its projection automaton (a unary access is 3)
	// now and held are Eraser's lock sets (locksets.go), kept here so that
	// the critical-section proof needs no pass of its own: the locks held
	// now and, per letter, at every access with it so far. held is nil
	// until the thread first acquires a lock (a letter beyond its length
	// was only used holding none), so a trace without locks pays nothing.
	now  lockset
	held []lockset
}

// summary is the first pass's result: the names, the per-thread letter
// summaries, and which synchronisation the trace uses.
type summary struct {
	name        string
	threads     []*threadSum
	threadNames []string
	vars, locks []string
	events      int64
	sync        bool          // some acq, rel, fork or join
	lockUser    []int32       // per lock: its one thread, or -2 when shared
	forker      map[int32]ref // per forked thread: its fork event (thread, edge)
	joined      []int32       // the threads some thread joins (with repeats)
}

// collect is the first pass: it reads the whole trace, writes it to the
// spool and fills the summary. It stops with the context's error.
func collect(ctx context.Context, r *trace.Reader, sp *spool) (*summary, error) {
	s := &summary{name: r.Name()}
	if err := s.fold(ctx, r, sp); err != nil {
		return nil, err
	}
	if err := sp.finish(); err != nil {
		return nil, err
	}
	s.threadNames = r.Threads().Names()
	s.vars, s.locks = r.Vars().Names(), r.Locks().Names()
	for len(s.threads) < len(s.threadNames) {
		s.threads = append(s.threads, &threadSum{})
	}
	return s, nil
}

// fold reads the trace (parsed a few batches ahead, trace.ReadAhead) into
// the spool and the summary.
func (s *summary) fold(ctx context.Context, r *trace.Reader, sp *spool) error {
	a := trace.ReadAhead(r.Read)
	defer a.Close()
	for {
		evs, err := a.Batch()
		for i := range evs {
			evs[i].Line += sp.shift
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
func (s *summary) step(ev *trace.Event) {
	for int(ev.Thread) >= len(s.threads) {
		s.threads = append(s.threads, &threadSum{})
	}
	th := s.threads[ev.Thread]
	th.events++
	th.edges++
	s.events++
	switch ev.Op {
	case model.OpBegin:
		th.txn++
		th.open = true
	case model.OpEnd:
		th.open = false
	case model.OpRead, model.OpWrite:
		if !th.open {
			th.txn++
			th.edges += 2
		}
		th.see(letterOf(ev), th.txn)
	case model.OpAcquire:
		s.sync = true
		s.useLock(ev.Target, ev.Thread)
		th.acquire(ev.Target)
	case model.OpRelease:
		s.sync = true
		s.useLock(ev.Target, ev.Thread)
		th.now.remove(ev.Target)
	default:
		s.sync = true
		if ev.Op == model.OpJoin {
			s.joined = append(s.joined, ev.Target)
		}
		if ev.Op == model.OpFork {
			if s.forker == nil {
				s.forker = map[int32]ref{}
			}
			s.forker[ev.Target] = ref{int(ev.Thread), th.edges - 1}
		}
	}
}

// see records that letter l occurs in transaction txn.
func (th *threadSum) see(l profiles.Letter, txn int32) {
	if int(l) >= len(th.span) {
		n := max(2*len(th.span), int(l)+1, 16)
		th.span = append(th.span, make([]letterSpan, n-len(th.span))...)
	}
	sp := &th.span[l] // first and last share a cache line
	first := sp.first == 0
	if first {
		sp.first = txn
	}
	sp.last = txn
	if th.held != nil {
		th.hold(l, first)
	}
}

// acquire adds lock l to the locks held now; the first acquire starts the
// per-letter lock sets, all empty for the letters used so far.
func (th *threadSum) acquire(l int32) {
	th.now.add(l)
	if th.held == nil {
		th.held = make([]lockset, len(th.span))
	}
}

// hold intersects letter l's lock set with the locks held now (first: l's
// first access, whose lock set is those locks).
func (th *threadSum) hold(l profiles.Letter, first bool) {
	if int(l) >= len(th.held) {
		th.held = append(th.held, make([]lockset, len(th.span)-len(th.held))...)
	}
	if first {
		th.held[l] = th.now
	} else {
		th.held[l] &= th.now
	}
}

// heldAt is the lock set of letter l: the locks held at every access
// with it (none for a letter the thread never uses).
func (th *threadSum) heldAt(l profiles.Letter) lockset {
	if int(l) < len(th.held) {
		return th.held[l]
	}
	return 0
}

func (s *summary) useLock(l, t int32) {
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

// letterOf is the trace event's letter (profiles' numbering: 2v read, 2v+1
// write).
func letterOf(ev *trace.Event) profiles.Letter {
	l := profiles.Letter(2 * ev.Target)
	if ev.Op == model.OpWrite {
		l++
	}
	return l
}

// firstOf and lastOf read a thread's summary, 0 for a letter it never uses.
func (th *threadSum) firstOf(l profiles.Letter) int32 {
	if int(l) < len(th.span) {
		return th.span[l].first
	}
	return 0
}

func (th *threadSum) lastOf(l profiles.Letter) int32 {
	if int(l) < len(th.span) {
		return th.span[l].last
	}
	return 0
}

// sharedLock reports whether two threads use lock l: a lock of one thread
// never blocks and (its releases and acquires being in program order) adds
// no conflict, so the reduced program drops it.
func (s *summary) sharedLock(l int32) bool { return int(l) < len(s.lockUser) && s.lockUser[l] == -2 }
