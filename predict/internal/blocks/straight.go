package blocks

import (
	"math"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// A pattern whose window is over maxGrid cells (a transaction that spans
// most of its thread, as a benchmark's harness method does) is not
// searched whole, nor one whose window may lose runs; other runs are
// tried instead. The observed order itself, cut after both transactions:
// it has the pattern when its four events came in the pattern's orders.
// And the nested decision's case A: a thread stops where it holds no
// lock, the other runs through its part of the pattern and its
// transaction to where it holds none, and the first goes on, so that
// neither waits for the other. They are runs only if verify accepts
// them; not finding one proves nothing.

// straight tries the two case-A runs of the pattern X.a0 < Y.a1, Y.b1 <
// X.b0 from the window's start: X stops between a0 and b0, or Y between
// b1 and a1 (when b1 comes first).
func (d *decider) straight(w *window, a0, b0, a1, b1 int64) ([]proj.Segment, bool, error) {
	x, y := &w.x, &w.y
	if segs, ok, err := d.stopAndGo(x, y, max(a0+1, x.s), b0, max(a1, b1)+1, max(b0+1, x.e)); err != nil || ok {
		return segs, ok, err
	}
	if b1 < a1 {
		return d.stopAndGo(y, x, max(b1+1, y.s), a1, max(a0, b0)+1, max(a1+1, y.e))
	}
	return nil, false, nil
}

// observed is the observed order through the later end of the pattern's
// two transactions (all of the trace for one still open at its end): a
// plan whose cycle verify checks is in its order.
func (d *decider) observed(f Found) (proj.Plan, error) {
	t, u := &d.ix.Threads[f.In.X].Txns[f.TX], &d.ix.Threads[f.In.Y].Txns[f.TY]
	last := max(t.EndLine, u.EndLine, t.Begin, u.Begin)
	if t.EndLine == 0 && t.Begin != t.EndLine || u.EndLine == 0 && u.Begin != u.EndLine {
		last = math.MaxInt64
	}
	cut := make([]int64, len(d.ix.Threads))
	open := make([]bool, len(cut))
	_, err := proj.SpoolEach(d.sp, func() bool { return false }, func(ev *trace.Event) bool {
		if ev.Line > last {
			return false
		}
		switch ev.Op {
		case model.OpBegin:
			open[ev.Thread] = true
		case model.OpEnd:
			open[ev.Thread] = false
		}
		cut[ev.Thread] += proj.EdgesOf(ev, open[ev.Thread])
		d.cells++
		return true
	})
	return proj.Plan{Observed: &proj.ObservedCut{Cut: cut}}, err
}

// stopAndGo is the run: p runs to its first lock-free position at or after
// from, if it is at most upto; q runs to its first at or after through
// and its transaction's end; p runs on to finish (exclusive).
func (d *decider) stopAndGo(p, q *side, from, upto, through, finish int64) ([]proj.Segment, bool, error) {
	stop, err := d.freeAt(p.t, from)
	if err != nil || stop > upto {
		return nil, false, err
	}
	on, err := d.freeAt(q.t, max(through, q.e))
	if err != nil {
		return nil, false, err
	}
	var segs []proj.Segment
	for _, sg := range []proj.Segment{{Thread: int(p.t), Upto: stop - 1}, {Thread: int(q.t), Upto: on - 1},
		{Thread: int(p.t), Upto: finish - 1}} {
		if sg.Upto >= d.lo(p, q, sg.Thread) {
			segs = merge(segs, []proj.Segment{sg})
		}
	}
	return segs, true, nil
}

// lo is the first edge a segment of thread t may start at: the window's
// start of its side.
func (d *decider) lo(p, q *side, t int) int64 {
	if int(p.t) == t {
		return p.s
	}
	return q.s
}

// freeAt is thread t's first position at or after from where it holds no
// shared lock, one pass over the spool (counted as work).
func (d *decider) freeAt(t int32, from int64) (int64, error) {
	d.cells += d.ix.Threads[t].Edges
	return d.ix.nextFree(d.sp, t, from)
}
