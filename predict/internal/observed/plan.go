package observed

import (
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// walk is the second pass over the observed prefix: it numbers
// transactions as docs/spec.md §1 does, counts each thread's edges, and keeps the
// events the cycle names and those of X.
type walk struct {
	lockEdges bool
	pos, txn  []int64
	open      []bool
	named     map[int64]event // by line
	x         []event
	xThread   int32
	xBegin    int64
	xTxn      int64
}

// event is one event of the observed prefix (X's can be a million:
// 40 bytes each).
type event struct {
	at     proj.Ref
	txn    int64 // thread-local transaction number, -1 outside any
	line   int64
	op     model.Op
	target int32
}

// Plan is the witness of the monitor's violation v (found at line first):
// the observed prefix up to that line with v's cycle closed through X. It
// reports false when the cycle does not fit the prefix.
func Plan(in Input, v monitor.TraceViolation, first int64) (proj.Plan, bool, error) {
	k := len(in.Summary.Threads)
	w := &walk{lockEdges: in.LockEdges, pos: make([]int64, k), txn: make([]int64, k),
		open: make([]bool, k), named: map[int64]event{}, xThread: v.Thread, xBegin: v.Begin, xTxn: -1}
	for _, c := range v.Cycle {
		w.named[c.Line] = event{}
	}
	r := in.Spool.Reader()
	var ev trace.Event
	for {
		if err := r.Next(&ev); err == io.EOF || err == nil && ev.Line > first {
			break
		} else if err != nil {
			return proj.Plan{}, false, err
		}
		w.step(&ev)
	}
	pl, ok, err := w.plan(v)
	if ok {
		pl.Observed = &proj.ObservedCut{Cut: w.pos}
	}
	return pl, ok, err
}

// step places one event.
func (w *walk) step(ev *trace.Event) {
	t := ev.Thread
	at, txn := w.pos[t], int64(-1)
	switch {
	case ev.Op == model.OpBegin:
		w.txn[t]++
		w.open[t], txn = true, w.txn[t]
	case ev.Op == model.OpEnd:
		w.open[t], txn = false, w.txn[t]
	case w.open[t] && (ev.Op.IsAccess() || w.lockEdges):
		txn = w.txn[t]
	case ev.Op.IsAccess() || w.lockEdges: // a unary transaction
		w.txn[t]++
		txn = w.txn[t]
	}
	w.pos[t] += proj.EdgesOf(ev, w.open[t])
	if ev.Op.IsAccess() && !w.open[t] {
		at++ // the access is the middle edge of begin; access; end
	}
	oe := event{at: proj.Ref{Thread: int(t), Edge: at}, txn: txn, line: ev.Line, op: ev.Op, target: ev.Target}
	if _, ok := w.named[ev.Line]; ok {
		w.named[ev.Line] = oe
	}
	if t == w.xThread && ev.Line == w.xBegin {
		w.xTxn = txn
	}
	if t == w.xThread && txn >= 0 && txn == w.xTxn {
		w.x = append(w.x, oe)
	}
}

// plan closes the cycle through X: X leaves by an event that conflicts with
// (and precedes) the first named event, and is re-entered by one that
// follows and conflicts with the last.
func (w *walk) plan(v monitor.TraceViolation) (proj.Plan, bool, error) {
	var groups [][]event // the other transactions, in cycle order
	for _, c := range v.Cycle {
		e := w.named[c.Line]
		if e.txn < 0 || e.at.Thread != int(c.Thread) {
			return proj.Plan{}, false, nil
		}
		if n := len(groups); n > 0 && sameTxn(groups[n-1][0], e) {
			groups[n-1] = append(groups[n-1], e)
		} else {
			groups = append(groups, []event{e})
		}
	}
	if len(groups) == 0 {
		return proj.Plan{}, false, nil
	}
	in := groups[0][0]
	last := groups[len(groups)-1]
	out := last[len(last)-1]
	xOut, ok1 := w.xEvent(func(e event) bool { return e.line < in.line && conflicts(e, in, w.lockEdges) })
	xIn, ok2 := w.xEvent(func(e event) bool { return e.line > out.line && conflicts(out, e, w.lockEdges) })
	if !ok1 || !ok2 {
		return proj.Plan{}, false, nil
	}
	var pl proj.Plan
	from := xOut
	for k := 0; k < len(groups); k++ {
		g := groups[k]
		in, out := g[0], g[len(g)-1]
		for k+1 < len(groups) && groups[k+1][0].at.Thread == in.at.Thread {
			// Consecutive transactions of one thread: program order
			// short-cuts the cycle from the first to the last.
			k++
			out = groups[k][len(groups[k])-1]
		}
		pl.Cycle = append(pl.Cycle, [2]proj.Ref{from.at, in.at})
		if !sameTxn(in, out) {
			pl.Cycle = append(pl.Cycle, [2]proj.Ref{in.at, out.at})
		}
		from = out
	}
	pl.Cycle = append(pl.Cycle, [2]proj.Ref{from.at, xIn.at})
	return pl, true, nil
}

func (w *walk) xEvent(ok func(event) bool) (event, bool) {
	for _, e := range w.x {
		if ok(e) {
			return e, true
		}
	}
	return event{}, false
}

func sameTxn(a, b event) bool { return a.at.Thread == b.at.Thread && a.txn == b.txn }

// conflicts is docs/spec.md §1's D for an event a before an event b.
func conflicts(a, b event, lockEdges bool) bool {
	switch {
	case a.at.Thread == b.at.Thread:
		return true
	case a.op.IsAccess() && b.op.IsAccess():
		return a.target == b.target && (a.op == model.OpWrite || b.op == model.OpWrite)
	case !lockEdges:
		return false
	case a.op == model.OpRelease && (b.op == model.OpAcquire || b.op == model.OpReadAcquire),
		a.op == model.OpReadRelease && b.op == model.OpAcquire,
		a.op == model.OpPost && b.op == model.OpWait:
		return a.target == b.target // docs/spec.md §3's orderings but tokens (their give is the run's)
	case a.op == model.OpFork && int(a.target) == b.at.Thread:
		return true
	}
	return b.op == model.OpJoin && int(b.target) == a.at.Thread
}
