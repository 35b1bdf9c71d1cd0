package nested

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// The run of a pattern of the linear two-thread decision (index.go).
// Both start with the context C (what happens before T1's and T2's forks,
// in its observed order).
//
// Case A (T1 holds no lock at its position p1, after e1 and before e2):
// T1 on to p1, T2 through f on to z, its first lock-free position after f
// (its end when there is none), then T1 through e2. Neither waits for the
// other: T1 holds nothing while T2 moves, T2 nothing while T1 moves on
// (unless z is T2's end and it still holds a lock there, which the
// verification catches).
//
// Case B: the conditions say a run exists, not which; it is found by a
// search of the grid of positions (T1's from s, its last lock-free
// position before e1, through e2; T2's from y0 to z), where a point is
// forbidden when both threads hold one lock there, f must come after e1
// and e2 after f. A path is a run of the two threads from (s, y0), which
// both hold no lock at, so C, T1 to s and T2 to y0 lead there. The grid is
// the outer critical section of T1 around e1 and e2 times T2's stretch
// between lock-free points around f: small for real programs; beyond
// maxGrid cells the pattern is left undecided.

// Lead is how the run of a pattern starts: it may grow the context C in
// place (other threads run on until they release the locks they hold
// where C leaves them) and returns C's run as segments. predict's
// two-thread patterns start their runs the same way.
type Lead func(ctx []int64, t1, t2 int) ([]proj.Segment, error)

// Plan is the run of a pattern over the projection, or false when none is
// found.
func Plan(s *proj.Summary, sp *proj.Spool, f Find, lead Lead) (proj.Plan, bool, error) {
	f.ctx = f.context()
	segs, err := lead(f.ctx, f.T1, f.T2)
	if err != nil {
		return proj.Plan{}, false, err
	}
	x := f.s // case B: T1's outer section
	if f.caseA {
		x = f.p1
		if f.join1 > f.E1 && f.join1 < x { // T1 joins T2 after e1: T1 waits before the join
			x = f.join1
		}
	}
	path, ok, err := gridPath(s, sp, f, x)
	switch {
	case err != nil:
		return proj.Plan{}, false, err
	case ok:
		segs = append(segs, path...)
	case !f.caseA:
		return proj.Plan{}, false, nil
	default: // case A over the grid's size: T1 waits at x, T2 runs on to z
		z := f.z
		if f.join1 >= x && f.join1 < f.E2 { // T1 joins T2 on its way: T2 ends first
			z = f.end2
		}
		for _, sg := range []proj.Segment{{Thread: f.T1, Upto: x - 1}, {Thread: f.T2, Upto: z - 1}, {Thread: f.T1, Upto: f.E2}} {
			if sg.Upto >= f.ctx[sg.Thread] { // a thread already past it in C stays
				segs = append(segs, sg)
			}
		}
	}
	e1, e2, a := proj.Ref{Thread: f.T1, Edge: f.E1}, proj.Ref{Thread: f.T1, Edge: f.E2}, proj.Ref{Thread: f.T2, Edge: f.F}
	return proj.Plan{Segs: segs, Cycle: [][2]proj.Ref{{e1, a}, {a, e2}}}, true, nil
}

// gridPath is a run from C's end through the pattern, T1 starting from
// position x0: segments of T1 and T2, or false when the grid has no path
// or is over maxGrid cells.
func gridPath(s *proj.Summary, sp *proj.Spool, f Find, x0 int64) ([]proj.Segment, bool, error) {
	if f.join1 >= x0 && f.join1 < f.E2 { // T1 joins T2 in the grid: T2's end must be in it
		f.z = f.end2
	}
	g := &grid{f: f, x0: x0, y0: f.y0}
	if (f.E2+2-x0)*(f.z+1-f.y0) > maxGrid {
		return nil, false, nil
	}
	g.xs, g.ys = max(x0, f.ctx[f.T1]), max(f.y0, f.ctx[f.T2])
	need := make([]int64, len(s.Threads))
	need[f.T1], need[f.T2] = f.E2+1, f.z
	held := [2][]int32{}
	heldAtC := false // T2 holds a lock where C leaves it
	err := s.EachEdge(sp, need, false, func(t int, q int64, ev model.Event) {
		i, from, evs := 1, g.y0, &g.ev2
		if t == f.T1 {
			i, from, evs = 0, g.x0, &g.ev1
		}
		if i == 1 && q == f.ctx[t] {
			heldAtC = len(held[1]) > 0
		}
		if q >= from {
			*evs = append(*evs, ev)
			return
		}
		switch ev.Op {
		case model.OpAcquire:
			held[i] = append(held[i], ev.Target)
		case model.OpRelease:
			held[i] = proj.RemoveLock(held[i], ev.Target)
		}
	})
	g.init1, g.init2 = held[0], held[1]
	if err != nil || !g.heldSets() {
		return nil, false, err
	}
	moves, ok := g.search()
	if !ok {
		return nil, false, nil
	}
	segs := g.prefixes(heldAtC)
	for _, m := range moves {
		if n := len(segs); n > 0 && segs[n-1].Thread == m.Thread {
			segs[n-1].Upto = m.Upto
			continue
		}
		segs = append(segs, m)
	}
	return segs, true, nil
}
