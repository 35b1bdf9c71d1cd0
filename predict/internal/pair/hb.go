package pair

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
	"github.com/conc-dev/conc/trace"
)

// The two-thread reordering (docs/predict.md, "Two threads, closed under
// happens-before"). A conflict cycle through transactions of two threads
// contains the pattern: a transaction A of thread T1 with accesses
// e1 <po e2, and accesses f1 <=po f2 of thread T2 with e1 D f1 and f2 D e2,
// run as e1 < f1 <= f2 < e2. This pass looks for the pattern in one order
// that is always a run: the observed order restricted to the events that
// happen before f2 or before e2 (program order, release -> next acquire,
// fork -> child, child -> join: the order predict's trim of the observed
// witness keeps), with e2 moved last. That set is down-closed, so the
// observed order restricted to it is a run (the trim's argument); e2 is an
// access, which never blocks. The run has the pattern when, as observed, e1 precedes f1
// and e2 precedes f2 (else the observed trace already violates), f2 does
// not happen after e2 (T2 does not know T1's edge e2: vc_f2[T1] <= e2), and
// then it has the cycle A -> txn(f1) ->po txn(f2) -> A.
//
// One pass, vector clocks in edges of each thread's projection, and per
// thread and letter the latest transaction using it (its first and last
// access): O(threads) per access and O(threads² + threads × letters)
// memory (the clocks and one entry per pair of threads, besides the
// letters), whatever the length. It finds violations only: a pattern whose run must reorder
// critical sections (T2's segment happening after A through a lock) is not
// this order's, and is left to the rest of the pipeline.

// letterTxn is a thread's latest transaction using a letter: its number and
// the edges of the letter's first and last access in it.
type letterTxn struct {
	txn                 int64
	first, last         int64
	firstLine, lastLine int64 // the trace lines of the first and last access
	firstLoc, lastLoc   int32 // and their code locations (-1: none; --all's signatures)
}

// pairEntry is T2's entry into a transaction of T1: T2's access f1 (edge,
// transaction) conflicts with T1's e1 (edge) of transaction txn, which it
// follows as observed.
type pairEntry struct {
	txn       int64
	e1        int64
	f1, f1Txn int64
	e1Line    int64
	e1Loc     int32
	e1L       profiles.Letter
}

// HBFind is a happens-before pattern found: E1, E2 of T1's transaction,
// F1, F2 of T2, as edges, and whether F1 and F2 lie in one transaction.
type HBFind struct {
	T1, T2         int
	E1, E2, F1, F2 int64
	SameF          bool
	LineE2, LineF2 int64
	// E1 and E2's letters, E1's line and both code locations (--all's
	// signatures)
	E1L, E2L     profiles.Letter
	LineE1       int64
	LocE1, LocE2 int32
}

// HBScan is the state of the pass; predict --all steps it on after each
// hit.
type HBScan struct {
	*hb.Walk
	txn   []int64
	last  [][]letterTxn
	entry [][]pairEntry // entry[t2][t1]; txn 0: none
}

// FindHB runs the pass over the spool and returns the first pattern; stop
// ends it early (a deadline).
func FindHB(s *proj.Summary, sp *proj.Spool, stop func() bool) (HBFind, bool, error) {
	f, hit, _, err := firstHit(sp, stop, NewHBScan(s).Step)
	return f, hit, err
}

// NewHBScan is the pass's state before its first event.
func NewHBScan(s *proj.Summary) *HBScan {
	k := len(s.Threads)
	ps := &HBScan{Walk: hb.NewWalk(k, len(s.Locks), false), txn: make([]int64, k), last: make([][]letterTxn, k),
		entry: make([][]pairEntry, k)}
	for t := range ps.entry {
		ps.entry[t] = make([]pairEntry, k)
	}
	return ps
}

// Step folds one event in, and reports a pattern it closes.
func (ps *HBScan) Step(ev *trace.Event) (HBFind, bool) {
	t := ev.Thread
	at := ps.Walk.Step(ev)
	if ev.Op == model.OpBegin || ev.Op.IsAccess() && !ps.Open[t] {
		ps.txn[t]++ // a transaction, or a unary access's own
	}
	if !ev.Op.IsAccess() {
		return HBFind{}, false
	}
	l := proj.LetterOf(ev)
	ps.enter(int(t), l, at)
	f, ok := ps.close(int(t), l, at)
	ps.see(int(t), l, at, ev.Line, ev.Loc)
	if ok {
		f.LineF2 = ev.Line
	}
	return f, ok
}

// enter records, for every other thread t1, the latest transaction of t1
// that t's access (edge at, letter l) enters: one with an earlier access
// conflicting with l (the earliest such access is the best e1).
func (ps *HBScan) enter(t int, l profiles.Letter, at int64) {
	for t1 := range ps.last {
		if t1 == t {
			continue
		}
		for _, a := range conflicting(l) {
			if a < 0 || int(a) >= len(ps.last[t1]) {
				continue
			}
			rec, en := ps.last[t1][a], &ps.entry[t][t1]
			if rec.txn == 0 || rec.txn < en.txn || rec.txn == en.txn && rec.first >= en.e1 {
				continue
			}
			*en = pairEntry{txn: rec.txn, e1: rec.first, f1: at, f1Txn: ps.txn[t], e1Line: rec.firstLine, e1Loc: rec.firstLoc, e1L: a}
		}
	}
}

// close looks for a t1 whose entered transaction has an access e2 after e1
// conflicting with t's access (edge at, letter l) that t does not know of.
func (ps *HBScan) close(t int, l profiles.Letter, at int64) (HBFind, bool) {
	for t1 := range ps.last {
		en := ps.entry[t][t1]
		if t1 == t || en.txn == 0 {
			continue
		}
		for _, b := range conflicting(l) {
			if b < 0 || int(b) >= len(ps.last[t1]) {
				continue
			}
			rec := ps.last[t1][b]
			if rec.txn == en.txn && rec.last > en.e1 && rec.last >= ps.VC[t][t1] {
				return HBFind{T1: t1, T2: t, E1: en.e1, E2: rec.last, F1: en.f1, F2: at,
					SameF: en.f1Txn == ps.txn[t], LineE2: rec.lastLine,
					E1L: en.e1L, E2L: b, LineE1: en.e1Line, LocE1: en.e1Loc, LocE2: rec.lastLoc}, true
			}
		}
	}
	return HBFind{}, false
}

// see records t's access (edge at) to letter l in its current transaction.
func (ps *HBScan) see(t int, l profiles.Letter, at, line int64, loc int32) {
	if int(l) >= len(ps.last[t]) {
		n := max(2*len(ps.last[t]), int(l)+1, 16)
		ps.last[t] = append(ps.last[t], make([]letterTxn, n-len(ps.last[t]))...)
	}
	rec := &ps.last[t][l]
	if rec.txn != ps.txn[t] {
		*rec = letterTxn{txn: ps.txn[t], first: at, last: at, firstLine: line, lastLine: line, firstLoc: loc, lastLoc: loc}
		return
	}
	rec.last, rec.lastLine, rec.lastLoc = at, line, loc
}

// conflicting lists the letters that conflict with l (at most two; -1:
// none): a write's read and itself, a read's write. The chain search has
// its own copy; the two finders share no code but the projection layer.
func conflicting(l profiles.Letter) [2]profiles.Letter {
	if l.Write() {
		return [2]profiles.Letter{l - 1, l}
	}
	return [2]profiles.Letter{l + 1, -1}
}
