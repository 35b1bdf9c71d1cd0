package forkorder

import (
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
	"github.com/conc-dev/conc/trace"
)

// summaryFrom is the first pass's letter summary of every thread t counting
// only its edges from from[t] on (transactions numbered as in the whole);
// with lx, over its letters, and a lock, fork or join event outside a
// transaction is one of its own (docs/spec.md §1).
func summaryFrom(s *proj.Summary, sp *proj.Spool, from []int64, lx *lockLetters) ([]*proj.ThreadSum, error) {
	th := make([]*proj.ThreadSum, len(s.Threads))
	for t := range th {
		th[t] = &proj.ThreadSum{}
	}
	edges := make([]int64, len(th))
	var ls []profiles.Letter
	r := sp.Reader()
	var ev trace.Event
	for {
		if err := r.Next(&ev); err == io.EOF {
			return th, nil
		} else if err != nil {
			return nil, err
		}
		t, x := ev.Thread, th[ev.Thread]
		at := edges[t]
		switch {
		case ev.Op == model.OpBegin:
			x.Txn++
			x.Open = true
		case ev.Op == model.OpEnd:
			x.Open = false
		case ev.Op.IsAccess() || lx != nil:
			if !x.Open {
				x.Txn++
			}
			if ev.Op.IsAccess() && !x.Open {
				at++
			}
			if at >= from[t] {
				for _, l := range lx.of(&ev, ls[:0]) {
					x.See(l, x.Txn)
				}
			}
		}
		edges[t] += proj.EdgesOf(&ev, x.Open)
	}
}

// lockLetters gives, with lock edges, every event the letters that make its
// conflicts (more than docs/spec.md §1's, which is sound for a proof: more
// conflicts only add cycles): an access its own; acquire and release of
// lock l a write of a variable for l (so acquire conflicts with release both
// ways); fork U and join U, and every event of a forked or joined thread U,
// a write of a variable for U. A nil lockLetters gives accesses theirs only.
type lockLetters struct {
	vars, locks int
	marked      []bool // per thread: forked or joined by some thread
}

func newLockLetters(s *proj.Summary) *lockLetters {
	lx := &lockLetters{vars: len(s.Vars), locks: len(s.Locks), marked: make([]bool, len(s.Threads))}
	for u := range s.Forker {
		lx.marked[u] = true
	}
	for _, u := range s.Joined {
		lx.marked[u] = true
	}
	return lx
}

// of appends ev's letters to ls (an access's own first).
func (lx *lockLetters) of(ev *trace.Event, ls []profiles.Letter) []profiles.Letter {
	if ev.Op.IsAccess() {
		ls = append(ls, proj.LetterOf(ev))
	}
	if lx == nil {
		return ls
	}
	write := func(v int) profiles.Letter { return profiles.Letter(2*v + 1) }
	switch ev.Op {
	case model.OpAcquire, model.OpRelease:
		ls = append(ls, write(lx.vars+int(ev.Target)))
	case model.OpFork, model.OpJoin:
		ls = append(ls, write(lx.vars+lx.locks+int(ev.Target)))
	}
	if lx.marked[ev.Thread] {
		ls = append(ls, write(lx.vars+lx.locks+int(ev.Thread)))
	}
	return ls
}
