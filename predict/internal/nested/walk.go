package nested

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// walk follows, through a pass, the projections' edges, the open
// transactions, the vector clocks in edges (a lock's release orders its
// next acquire, a fork the child's first event, a join after the joined
// thread's end) and the clock of each fork, from which a pattern's
// context is built.
type walk struct {
	vc, lockVC [][]int64
	open       []bool
	forkVC     [][]int64 // per forked thread: the clock of its fork
}

func newWalk(k, locks int) *walk {
	w := &walk{vc: make([][]int64, k), lockVC: make([][]int64, locks), open: make([]bool, k), forkVC: make([][]int64, k)}
	for t := range w.vc {
		w.vc[t] = make([]int64, k)
	}
	return w
}

// step moves thread ev.Thread on by ev and returns the edge of an access
// (the middle edge of a unary one: begin; access; end) or of the event.
func (w *walk) step(ev *trace.Event) int64 {
	t := ev.Thread
	at := w.vc[t][t]
	hb.SyncBefore(w.vc, w.lockVC, ev)
	switch {
	case ev.Op == model.OpBegin:
		w.open[t] = true
	case ev.Op == model.OpEnd:
		w.open[t] = false
	case ev.Op.IsAccess() && !w.open[t]:
		at++
	}
	w.vc[t][t] += proj.EdgesOf(ev, w.open[t])
	hb.SyncAfter(w.vc, w.lockVC, ev)
	if ev.Op == model.OpFork {
		w.forkVC[ev.Target] = append([]int64(nil), w.vc[ev.Target]...)
	}
	return at
}
