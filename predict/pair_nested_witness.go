package predict

import (
	"fmt"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// The run of a pattern of the linear two-thread decision (pair_nested.go).
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
// maxNestGrid cells the pattern is left undecided.

// maxNestGrid bounds the cells of case B's search (2 MiB of bits).
const maxNestGrid = 1 << 24

// nestPlan is the run of a pattern, or false when none is found.
func (p *predictor) nestPlan(f nestFind) (proj.Plan, bool, error) {
	f.ctx = f.context()
	if err := p.freeContext(f.ctx, f.t1, f.t2); err != nil {
		return proj.Plan{}, false, err
	}
	segs, err := p.contextSegments(f.ctx)
	if err != nil {
		return proj.Plan{}, false, err
	}
	x := f.s // case B: T1's outer section
	if f.caseA {
		x = f.p1
		if f.join1 > f.e1 && f.join1 < x { // T1 joins T2 after e1: T1 waits before the join
			x = f.join1
		}
	}
	path, ok, err := p.nestPath(f, x)
	switch {
	case err != nil:
		return proj.Plan{}, false, err
	case ok:
		segs = append(segs, path...)
	case !f.caseA:
		return proj.Plan{}, false, nil
	default: // case A over the grid's size: T1 waits at x, T2 runs on to z
		z := f.z
		if f.join1 >= x && f.join1 < f.e2 { // T1 joins T2 on its way: T2 ends first
			z = f.end2
		}
		for _, sg := range []proj.Segment{{Thread: f.t1, Upto: x - 1}, {Thread: f.t2, Upto: z - 1}, {Thread: f.t1, Upto: f.e2}} {
			if sg.Upto >= f.ctx[sg.Thread] { // a thread already past it in C stays
				segs = append(segs, sg)
			}
		}
	}
	e1, e2, a := proj.Ref{Thread: f.t1, Edge: f.e1}, proj.Ref{Thread: f.t1, Edge: f.e2}, proj.Ref{Thread: f.t2, Edge: f.f}
	return proj.Plan{Segs: segs, Cycle: [][2]proj.Ref{{e1, a}, {a, e2}}}, true, nil
}

// nestGrid is the grid of a pattern: the events of T1 from position x0
// through e2, and of T2 from y0 to z, with the locks each holds at every
// position.
type nestGrid struct {
	f        nestFind
	x0, y0   int64         // the grid's first positions
	ev1, ev2 []model.Event // events, from x0 and from y0
	init1    []int32       // the locks held at x0 and at y0
	init2    []int32
	held1    []uint64 // locks held per position (bit per lock of the grid)
	held2    []uint64
	xs, ys   int64 // where the search starts (after C)
}

// nestPath is a run from C's end through the pattern, T1 starting from
// position x0: segments of T1 and T2, or false when the grid has no path
// or is over maxNestGrid cells.
func (p *predictor) nestPath(f nestFind, x0 int64) ([]proj.Segment, bool, error) {
	if f.join1 >= x0 && f.join1 < f.e2 { // T1 joins T2 in the grid: T2's end must be in it
		f.z = f.end2
	}
	g := &nestGrid{f: f, x0: x0, y0: f.y0}
	if (f.e2+2-x0)*(f.z+1-f.y0) > maxNestGrid {
		return nil, false, nil
	}
	g.xs, g.ys = max(x0, f.ctx[f.t1]), max(f.y0, f.ctx[f.t2])
	need := make([]int64, len(p.s.Threads))
	need[f.t1], need[f.t2] = f.e2+1, f.z
	held := [2][]int32{}
	heldAtC := false // T2 holds a lock where C leaves it
	err := p.s.EachEdge(p.sp, need, false, func(t int, q int64, ev model.Event) {
		i, from, evs := 1, g.y0, &g.ev2
		if t == f.t1 {
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

// prefixes run T1 and T2 from C to the grid's start, where neither holds
// a lock. T1 goes first, unless T2 holds a lock where C leaves it (it
// forked T1 inside a section, say), which T1's way may need: then T2
// goes first, to its lock-free point y0, before f.
func (g *nestGrid) prefixes(heldAtC bool) []proj.Segment {
	f := g.f
	var segs []proj.Segment
	if g.xs > f.ctx[f.t1] {
		segs = append(segs, proj.Segment{Thread: f.t1, Upto: g.xs - 1})
	}
	if g.ys > f.ctx[f.t2] {
		segs = append(segs, proj.Segment{Thread: f.t2, Upto: g.ys - 1})
	}
	if heldAtC && len(segs) == 2 {
		segs[0], segs[1] = segs[1], segs[0]
	}
	return segs
}

// heldSets fills the locks held per position, numbering the grid's locks
// (at most 64; more leave the pattern undecided).
func (g *nestGrid) heldSets() bool {
	bit := map[int32]uint{}
	num := func(l int32) (uint, bool) {
		b, ok := bit[l]
		if !ok && len(bit) < 64 {
			b, ok = uint(len(bit)), true
			bit[l] = b
		}
		return b, ok
	}
	sets := func(init []int32, evs []model.Event) ([]uint64, bool) {
		out := make([]uint64, len(evs)+1)
		for _, l := range init {
			b, ok := num(l)
			if !ok {
				return nil, false
			}
			out[0] |= 1 << b
		}
		for i, ev := range evs {
			out[i+1] = out[i]
			if ev.Op != model.OpAcquire && ev.Op != model.OpRelease {
				continue
			}
			b, ok := num(ev.Target)
			if !ok {
				return nil, false
			}
			if ev.Op == model.OpAcquire {
				out[i+1] |= 1 << b
			} else {
				out[i+1] &^= 1 << b
			}
		}
		return out, true
	}
	var ok1, ok2 bool
	g.held1, ok1 = sets(g.init1, g.ev1)
	g.held2, ok2 = sets(g.init2, g.ev2)
	return ok1 && ok2
}

// open reports whether the point (x, y) may be on the path.
func (g *nestGrid) open(x, y int64) bool {
	f := g.f
	switch {
	case g.held1[x-g.x0]&g.held2[y-g.y0] != 0:
		return false
	case x <= f.e1 && y > f.f: // f before e1
		return false
	case x > f.e2 && y <= f.f: // e2 before f
		return false
	}
	return true
}

// moves1 reports whether T1 may take its edge x (from position x to x+1)
// while T2 is at y: not before T2's fork of T1, and its join of T2 only
// once T2 is at its end.
func (g *nestGrid) moves1(x, y int64) bool {
	f := g.f
	return !(f.fork2 >= 0 && y <= f.fork2) && !(x == f.join1 && y != f.end2)
}

// moves2 is moves1 for T2's edge y while T1 is at x.
func (g *nestGrid) moves2(y, x int64) bool {
	f := g.f
	return !(f.fork1 >= 0 && x <= f.fork1) && !(y == f.join2 && x != f.end1)
}

// search finds a monotone path from (xs, ys) to a point past e2 (column
// e2+1) through open points, by a table of reachable points, and returns
// its moves, one segment per edge.
func (g *nestGrid) search() ([]proj.Segment, bool) {
	f := g.f
	if g.xs > f.e2 || g.ys > f.z || !g.open(g.xs, g.ys) {
		return nil, false
	}
	w := f.z + 1 - g.ys
	reach := make([]uint64, ((f.e2+2-g.xs)*w+63)/64)
	at := func(x, y int64) int64 { return (x-g.xs)*w + (y - g.ys) }
	get := func(x, y int64) bool { i := at(x, y); return reach[i/64]&(1<<(i%64)) != 0 }
	for x := g.xs; x <= f.e2+1; x++ {
		for y := g.ys; y <= f.z; y++ {
			ok := x == g.xs && y == g.ys ||
				x > g.xs && get(x-1, y) && g.moves1(x-1, y) ||
				y > g.ys && get(x, y-1) && g.moves2(y-1, x)
			if ok && g.open(x, y) {
				i := at(x, y)
				reach[i/64] |= 1 << (i % 64)
			}
		}
	}
	for y := max(f.f+1, g.ys); y <= f.z; y++ {
		if get(f.e2+1, y) {
			return g.back(get, f.e2+1, y), true
		}
	}
	return nil, false
}

// back walks a reached point back to the start: the moves in run order.
func (g *nestGrid) back(get func(x, y int64) bool, x, y int64) []proj.Segment {
	var rev []proj.Segment
	for x > g.xs || y > g.ys {
		if x > g.xs && get(x-1, y) && g.moves1(x-1, y) {
			x--
			rev = append(rev, proj.Segment{Thread: g.f.t1, Upto: x})
		} else {
			y--
			rev = append(rev, proj.Segment{Thread: g.f.t2, Upto: y})
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// answerNested is the verified witness of a pattern, or false.
func (p *predictor) answerNested(f nestFind) (*Outcome, bool, error) {
	pl, ok, err := p.nestPlan(f)
	if err != nil || !ok {
		return nil, false, err
	}
	return p.checked(pl, nestedWhy(p, f))
}

// nestedWhy is the reason of a pattern's answer.
func nestedWhy(p *predictor, f nestFind) string {
	return fmt.Sprintf("%s (thread %s's access at line %d moved between thread %s's accesses at lines %d and %d)",
		nestedNote, p.s.ThreadNames[f.t2], f.lineF, p.s.ThreadNames[f.t1], f.lineE1, f.lineE2)
}

// nestedNote starts the reason of the linear two-thread decision's answer.
const nestedNote = "two threads and one variable, decided in linear time under nested locking"

// nestedResult is what the linear decision concludes without a violation.
type nestedResult struct {
	proved    bool   // no run has a cycle on one variable through two threads
	notNested string // why it did not apply ("": it did)
}

// nestedPairs runs the linear two-thread decision: a verified violation, or
// what it proved. A pattern whose run is refused (or not found) is tried
// no further; up to eight are tried.
func (p *predictor) nestedPairs() (*Outcome, nestedResult, error) {
	if !p.denseClocks() {
		return nil, nestedResult{}, nil // undecided
	}
	stop := func() bool { return p.ctx.Err() != nil }
	nx, ok, err := nestIndex(p.s, p.sp, p.nestLimit(), stop)
	if err != nil || !ok {
		return nil, nestedResult{}, err
	}
	if nx.bad != "" {
		return nil, nestedResult{notNested: nx.bad}, nil
	}
	tried := 0
	for _, want := range []int{1, 8} {
		var finds []nestFind
		whole, err := nestMeet(p.s, p.sp, nx, stop, func(f nestFind) bool {
			finds = append(finds, f)
			return len(finds) < want
		})
		switch {
		case err != nil:
			return nil, nestedResult{}, err
		case len(finds) == 0:
			return nil, nestedResult{proved: whole}, nil
		}
		for _, f := range finds[min(tried, len(finds)):] {
			if out, ok, err := p.answerNested(f); err != nil || ok {
				return out, nestedResult{}, err
			}
		}
		tried = len(finds)
	}
	return nil, nestedResult{}, nil
}
