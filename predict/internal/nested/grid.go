package nested

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// maxGrid bounds the cells of case B's search (2 MiB of bits).
const maxGrid = 1 << 24

// grid is the grid of a pattern: the events of T1 from position x0
// through e2, and of T2 from y0 to z, with the locks each holds at every
// position.
type grid struct {
	f        Find
	x0, y0   int64         // the grid's first positions
	ev1, ev2 []model.Event // events, from x0 and from y0
	init1    []int32       // the locks held at x0 and at y0
	init2    []int32
	held1    []uint64 // locks held per position (bit per lock of the grid)
	held2    []uint64
	xs, ys   int64 // where the search starts (after C)
}

// prefixes run T1 and T2 from C to the grid's start, where neither holds
// a lock. T1 goes first, unless T2 holds a lock where C leaves it (it
// forked T1 inside a section, say), which T1's way may need: then T2
// goes first, to its lock-free point y0, before f.
func (g *grid) prefixes(heldAtC bool) []proj.Segment {
	f := g.f
	var segs []proj.Segment
	if g.xs > f.ctx[f.T1] {
		segs = append(segs, proj.Segment{Thread: f.T1, Upto: g.xs - 1})
	}
	if g.ys > f.ctx[f.T2] {
		segs = append(segs, proj.Segment{Thread: f.T2, Upto: g.ys - 1})
	}
	if heldAtC && len(segs) == 2 {
		segs[0], segs[1] = segs[1], segs[0]
	}
	return segs
}

// heldSets fills the locks held per position, numbering the grid's locks
// (at most 64; more leave the pattern undecided).
func (g *grid) heldSets() bool {
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
func (g *grid) open(x, y int64) bool {
	f := g.f
	switch {
	case g.held1[x-g.x0]&g.held2[y-g.y0] != 0:
		return false
	case x <= f.E1 && y > f.F: // f before e1
		return false
	case x > f.E2 && y <= f.F: // e2 before f
		return false
	}
	return true
}

// moves1 reports whether T1 may take its edge x (from position x to x+1)
// while T2 is at y: not before T2's fork of T1, and its join of T2 only
// once T2 is at its end.
func (g *grid) moves1(x, y int64) bool {
	f := g.f
	return !(f.fork2 >= 0 && y <= f.fork2) && !(x == f.join1 && y != f.end2)
}

// moves2 is moves1 for T2's edge y while T1 is at x.
func (g *grid) moves2(y, x int64) bool {
	f := g.f
	return !(f.fork1 >= 0 && x <= f.fork1) && !(y == f.join2 && x != f.end1)
}

// search finds a monotone path from (xs, ys) to a point past e2 (column
// e2+1) through open points, by a table of reachable points, and returns
// its moves, one segment per edge.
func (g *grid) search() ([]proj.Segment, bool) {
	f := g.f
	if g.xs > f.E2 || g.ys > f.z || !g.open(g.xs, g.ys) {
		return nil, false
	}
	w := f.z + 1 - g.ys
	reach := make([]uint64, ((f.E2+2-g.xs)*w+63)/64)
	at := func(x, y int64) int64 { return (x-g.xs)*w + (y - g.ys) }
	get := func(x, y int64) bool { i := at(x, y); return reach[i/64]&(1<<(i%64)) != 0 }
	for x := g.xs; x <= f.E2+1; x++ {
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
	for y := max(f.F+1, g.ys); y <= f.z; y++ {
		if get(f.E2+1, y) {
			return g.back(get, f.E2+1, y), true
		}
	}
	return nil, false
}

// back walks a reached point back to the start: the moves in run order.
func (g *grid) back(get func(x, y int64) bool, x, y int64) []proj.Segment {
	var rev []proj.Segment
	for x > g.xs || y > g.ys {
		if x > g.xs && get(x-1, y) && g.moves1(x-1, y) {
			x--
			rev = append(rev, proj.Segment{Thread: g.f.T1, Upto: x})
		} else {
			y--
			rev = append(rev, proj.Segment{Thread: g.f.T2, Upto: y})
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
