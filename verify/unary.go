package verify

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// With lock edges a lock, fork or join event outside a transaction is a
// unary transaction (docs/spec.md §1), and a witness writes it as one:
// begin, the event, end, as a bare read or write is compiled. The automata
// have no such begin and end edges, so the move along the sync edge emits
// all three (model.Witness). These rules are checked here from the run and
// the paths alone.

var (
	beginEvent = model.Event{Op: model.OpBegin, Target: -1}
	endEvent   = model.Event{Op: model.OpEnd, Target: -1}
)

// emits is what a move along an edge labelled ev emits when its thread is
// depth transactions deep (the first n events of the array, which keeps a
// replay of millions of moves from allocating): nothing for an epsilon
// move, begin, ev, end for a sync event outside a transaction under lock
// edges, else ev.
func (c *checker) emits(ev model.Event, depth int) (evs [3]model.Event, n int) {
	switch {
	case ev.Op == model.OpSkip:
		return evs, 0
	case c.w.LockEdges && ev.Op.IsSync() && depth == 0:
		return [3]model.Event{beginEvent, ev, endEvent}, 3
	}
	return [3]model.Event{ev}, 1
}

// unaryNote explains, in an error, why a move emits a begin.
func (c *checker) unaryNote(ev model.Event, depth int) string {
	if _, n := c.emits(ev, depth); n < 3 {
		return ""
	}
	return fmt.Sprintf(" (the unary transaction of its %s outside a transaction: lock edges)", c.evName(ev))
}

// txnDepth is the begin nesting after an event with op at depth (nested
// begins flatten to the outermost; an end with none open changes nothing).
func txnDepth(depth int, op model.Op) int {
	switch op {
	case model.OpBegin:
		return depth + 1
	case model.OpEnd:
		return max(depth-1, 0)
	}
	return depth
}

// unarySync checks, with lock edges, that run event i, s, if it is a lock,
// fork or join event, lies inside a transaction of its thread (depth holds
// each thread's nesting before it: txn.go), as the documented form of a
// run requires: one outside is the unary transaction begin, event, end, and
// must be written so.
func (c *checker) unarySync(i int, s *model.Step, depth []int32) error {
	if s.Ev.Op.IsSync() && depth[s.Thread] == 0 {
		return fmt.Errorf("%s lies outside any transaction: with lock edges it is a unary transaction, "+
			"which the run must write as begin, %s, end", c.describe(i), c.evName(s.Ev))
	}
	return nil
}

// unaryWrappers counts, per thread, the begin and end events of the run that
// wrap a sync event: with lock edges, the thread's events just before and
// after it, at its position. A trace puts no two events at one position
// (a line), so in a run read off a trace's projections (Prefix) these are
// exactly the ones the move of the sync event emits besides it.
func (c *checker) unaryWrappers() []int {
	n := make([]int, len(c.p.Threads))
	if !c.w.LockEdges || c.syncs == 0 { // a run without sync events has nothing to wrap (the scan counted them)
		return n
	}
	last := make([]int, len(c.p.Threads)) // per thread: its previous run event, -1 before the first
	for t := range last {
		last[t] = -1
	}
	run := c.w.Run
	for i := range run {
		s := &run[i]
		prev := last[s.Thread]
		last[s.Thread] = i
		if prev < 0 || !s.Ev.Op.IsSync() && s.Ev.Op != model.OpEnd { // the ops first: a position compares a file name
			continue
		}
		p := &run[prev]
		po, op := p.Ev.Op, s.Ev.Op
		if (po == model.OpBegin && op.IsSync() || po.IsSync() && op == model.OpEnd) && s.Ev.Pos.IsValid() && p.Ev.Pos == s.Ev.Pos {
			n[s.Thread]++
		}
	}
	return n
}
