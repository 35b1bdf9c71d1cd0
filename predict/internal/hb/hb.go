// Package hb is the happens-before order of predict's observed run, which
// several finders share: vector clocks over program order, release →
// acquire of a lock, fork → the child's events and the child's last event
// → join (Join, SyncBefore, SyncAfter), a pass's walk over the spool with
// them (Walk: the two-thread finders' passes), and the cut of the observed
// prefix that happens before a set of events (Cut). Clocks count edges of each
// thread's projection (proj.EdgesOf), so a cut is a plan's ObservedCut.
//
// It imports nothing of predict but the projection layer.
package hb

import (
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// Cut is, per thread, how many edges of its projection happen before some
// event of the cycle (vector clocks over the observed prefix up to line
// first: one pass, k words per thread and per lock). It reports false if
// some cycle event is not in the prefix.
func Cut(s *proj.Summary, sp *proj.Spool, cycle [][2]proj.Ref, first int64) ([]int64, bool, error) {
	k := len(s.Threads)
	want := map[proj.Ref]bool{}
	for _, c := range cycle {
		want[c[0]], want[c[1]] = true, true
	}
	w := NewWalk(k, len(s.Locks), false)
	need := make([]int64, k)
	r := sp.Reader()
	var ev trace.Event
	for len(want) > 0 {
		if err := r.Next(&ev); err == io.EOF || err == nil && ev.Line > first {
			break
		} else if err != nil {
			return nil, false, err
		}
		t := ev.Thread
		before := w.VC[t][t]
		w.Step(&ev)
		for q := before; q < w.VC[t][t]; q++ {
			if want[proj.Ref{Thread: int(t), Edge: q}] {
				delete(want, proj.Ref{Thread: int(t), Edge: q})
				Join(need, w.VC[t])
			}
		}
	}
	return need, len(want) == 0, nil
}

// SyncBefore takes into ev's thread's clock what must precede ev: the last
// release of the lock it acquires, the whole of the thread it joins.
func SyncBefore(vc, lockVC [][]int64, ev *trace.Event) {
	switch ev.Op {
	case model.OpAcquire:
		Join(vc[ev.Thread], lockVC[ev.Target]) // nothing before the lock's first release
	case model.OpJoin:
		Join(vc[ev.Thread], vc[ev.Target])
	}
}

// SyncAfter passes ev on: a release to the lock's next acquirer, a fork to
// the child's first event.
func SyncAfter(vc, lockVC [][]int64, ev *trace.Event) {
	switch ev.Op {
	case model.OpRelease:
		lockVC[ev.Target] = append(lockVC[ev.Target][:0], vc[ev.Thread]...)
	case model.OpFork:
		Join(vc[ev.Target], vc[ev.Thread])
	}
}

// Join raises dst to src, component by component.
func Join(dst, src []int64) {
	for i, x := range src {
		dst[i] = max(dst[i], x)
	}
}
