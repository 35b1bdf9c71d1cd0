// Package forkorder is predict's prefilter with fork order (docs/predict.md,
// "The prefilter with fork order"). Dropping locks and joins only adds runs
// and, without lock edges, changes no conflict; forks are kept as the one
// order they impose: no event of thread u happens before u's fork. If u's
// fork happens after the edge q of thread i in program order and fork order
// alone (the fork's clock has more than q edges of i), every event of u
// comes after i's edge q in every run. A chain of Lemma 3 that closes on b
// (i's edge q) has all its events between a and b, so it uses no such
// thread: at b the chain search runs over the threads outside E(b), the
// threads whose fork comes after b. In the other direction, the events that
// happen before i's own fork precede all of i, so before a: the other
// threads' summaries count only their events after i's fork's clock
// (summaryFrom). That is the lock-free check of what is left (the threads
// of E(b) are left empty). E(b) only shrinks as b moves on in its thread,
// so each thread's open transaction refolds its F's at most once per fork
// it passes. No violation here means none with the synchronisation; a
// violation here concludes nothing. With lock edges the synchronisation's
// conflicts are kept as letters (lockLetters).
//
// It imports nothing of predict but the projection layer, its
// happens-before clocks and the chain search.
package forkorder

import (
	"context"
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
	"github.com/conc-dev/conc/trace"
)

// Input is what the prefilter reads: the first pass's summary, spool and
// users of each letter, whether lock, fork and join events conflict
// (--lock-edges), and the chain searches' budget.
type Input struct {
	Summary   *proj.Summary
	Spool     *proj.Spool
	Users     *proj.Users
	LockEdges bool
	MaxStates int   // --max-states, as chain.New takes it
	Budget    int64 // when positive, each chain search's state limit instead
}

// maxThreads bounds the threads: E is a word, and the chain search is the
// exhaustive one (2^k·k states at most).
const maxThreads = 12

// Prefilter reports whether the lock-free check with fork order finds no
// violation (a proof of serializability without lock edges, and with them
// over lockLetters' conflicts); false also when it does not apply (no fork,
// more than maxThreads threads), ran out of budget or ctx was cancelled.
func Prefilter(ctx context.Context, in Input) (bool, error) {
	if len(in.Summary.Forker) == 0 || len(in.Summary.Threads) > maxThreads {
		return false, nil
	}
	fs, err := newScan(ctx, in)
	if err != nil {
		return false, err
	}
	return fs.run()
}

// openTxn is one thread's open transaction in the scan.
type openTxn struct {
	open    bool
	pos     int64
	e       uint64
	letters map[profiles.Letter]bool
	cur     []int32 // least F over the letters seen, per final thread
}

// run is the scan over the spool: true when no chain closes.
func (fs *scan) run() (bool, error) {
	ts := make([]openTxn, len(fs.in.Summary.Threads))
	r := fs.in.Spool.Reader()
	var ev trace.Event
	for n := 0; ; n++ {
		if err := r.Next(&ev); err == io.EOF {
			return true, nil
		} else if err != nil {
			return false, err
		}
		if violates, ok, err := fs.step(&ts[ev.Thread], &ev); err != nil || violates || !ok {
			return false, err
		}
		if n&4095 == 0 && fs.ctx.Err() != nil {
			return false, nil
		}
	}
}

// step places ev, an event of the thread whose transaction is st, and
// checks it when it is in a transaction (a unary access cannot be
// interrupted); !ok when the search gave up.
func (fs *scan) step(st *openTxn, ev *trace.Event) (violates, ok bool, err error) {
	switch {
	case ev.Op == model.OpBegin:
		st.open, st.letters, st.cur = true, map[profiles.Letter]bool{}, nil
	case ev.Op == model.OpEnd:
		st.open, st.letters, st.cur = false, nil, nil
	case ev.Op.IsAccess() && !st.open:
		st.pos += 2 // begin; access; end
	case st.open:
		fs.ls = fs.lx.of(ev, fs.ls[:0])
		ls := fs.ls
		if ev.Op.IsAccess() && !fs.in.Users.Relevant(ev.Thread, ls[0]) {
			ls = ls[1:]
		}
		if violates, ok, err = fs.event(st, int(ev.Thread), ls); err != nil || violates || !ok {
			return violates, ok, err
		}
	}
	st.pos++
	return false, true, nil
}
