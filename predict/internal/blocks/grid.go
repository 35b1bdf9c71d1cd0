package blocks

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// maxGrid bounds one grid's cells (2 MiB of bits), as the nested
// decision's does.
const maxGrid = 1 << 24

// grid is a window's grid of positions for one pattern: a point (x, y) is
// X having taken x edges and Y y. A point is closed when both hold a lock
// there, when X holds a lock a third thread keeps, or when it breaks one
// of the pattern's orders (Y past a1 while X is not past a0; X past b0
// while Y is not past b1); a monotone path of open points from the
// window's start to a point where t and u are both over is a run of the
// two threads with the pattern.
type grid struct {
	w              *window
	ix             *Index
	a0, b0, a1, b1 int64    // the pattern's edges: X's a0 and b0, Y's a1 and b1
	hx, hy         []uint64 // write holds per position
	rx, ry         []uint64 // read holds per position
	blockW, blockR uint64   // what third threads hold, for writing and for reading
	cells          int64
}

// searchGrid looks for the run of a pattern in the window. It reports the
// moves from the window's start (segments), whether one was found, and
// why a run may have been missed ("": none was: the grid was searched
// whole, and the window loses none).
func (ix *Index) searchGrid(w *window, a0, b0, a1, b1 int64) (moves []proj.Segment, found bool, loss Loss, cells int64) {
	g := &grid{w: w, ix: ix, a0: a0, b0: b0, a1: a1, b1: b1}
	// An event of the pattern before the grid is in C, and precedes the
	// other thread's grid in every run; two of one order both in C are
	// ordered by C's schedule, which need not be the run's.
	loss = w.loss
	if loss == "" && (a0 < w.x.s && a1 < w.y.s || b0 < w.x.s && b1 < w.y.s) {
		loss = LossContext
	}
	g.cells = (w.x.a - w.x.s + 1) * (w.y.a - w.y.s + 1)
	if w.big || w.x.s > w.x.a || w.y.s > w.y.a || !g.lockBits() {
		return nil, false, LossBound, 0
	}
	reach := g.reach()
	for x := max(w.x.e, w.x.s); x <= w.x.a; x++ {
		for y := max(w.y.e, w.y.s); y <= w.y.a; y++ {
			if reach.get(g, x, y) {
				return g.back(reach, x, y), true, loss, g.cells
			}
		}
	}
	return nil, false, loss, g.cells
}

// bitset is the reached points, row by row of x.
type bitset []uint64

func (b bitset) at(g *grid, x, y int64) int64 { return (x-g.w.x.s)*(g.w.y.a-g.w.y.s+1) + (y - g.w.y.s) }
func (b bitset) get(g *grid, x, y int64) bool {
	i := b.at(g, x, y)
	return b[i/64]&(1<<(i%64)) != 0
}
func (b bitset) set(g *grid, x, y int64) {
	i := b.at(g, x, y)
	b[i/64] |= 1 << (i % 64)
}

// reach is the table of points reachable from the window's start.
func (g *grid) reach() bitset {
	w := g.w
	b := make(bitset, (g.cells+63)/64)
	for x := w.x.s; x <= w.x.a; x++ {
		for y := w.y.s; y <= w.y.a; y++ {
			ok := x == w.x.s && y == w.y.s ||
				x > w.x.s && b.get(g, x-1, y) && g.movesX(x-1, y) ||
				y > w.y.s && b.get(g, x, y-1) && g.movesY(y-1, x)
			if ok && g.open(x, y) {
				b.set(g, x, y)
			}
		}
	}
	return b
}

// open reports whether the point (x, y) may be on the path.
func (g *grid) open(x, y int64) bool {
	i, j := x-g.w.x.s, y-g.w.y.s
	wx, wy, rx, ry := g.hx[i], g.hy[j], g.rx[i], g.ry[j]
	switch {
	case wx&(wy|ry) != 0, rx&wy != 0: // a write hold excludes every other hold
		return false
	case (wx|wy|rx|ry)&g.blockW != 0, (wx|wy)&g.blockR != 0:
		return false
	case y > g.a1 && x <= g.a0: // Y's a1 before X's a0
		return false
	case x > g.b0 && y <= g.b1: // X's b0 before Y's b1
		return false
	}
	return true
}

// movesX reports whether X may take its edge x while Y is at y: not
// before Y's fork of X, its join of Y only at Y's end, and its join of a
// third thread only when C has run that thread to its end.
func (g *grid) movesX(x, y int64) bool {
	return g.moves(g.w.x.ev[x-g.w.x.s], g.w.y.t, y, g.w.x.forked)
}

// movesY is movesX for Y's edge y while X is at x.
func (g *grid) movesY(y, x int64) bool {
	return g.moves(g.w.y.ev[y-g.w.y.s], g.w.x.t, x, g.w.y.forked)
}

// moves: a thread takes event ev while the other thread is at pos;
// forkedAt is the other's edge that forks this one (-1: none in reach).
func (g *grid) moves(ev model.Event, other int32, pos, forkedAt int64) bool {
	if forkedAt >= 0 && pos <= forkedAt {
		return false
	}
	if ev.Op != model.OpJoin {
		return true
	}
	u := ev.Target
	if u == other {
		return pos == g.ix.Threads[u].Edges
	}
	return g.w.ctx[u] >= g.ix.Threads[u].Edges
}

// back walks a reached point back to the start: the run's moves, each
// edge a segment.
func (g *grid) back(b bitset, x, y int64) []proj.Segment {
	w := g.w
	var rev []proj.Segment
	for x > w.x.s || y > w.y.s {
		if x > w.x.s && b.get(g, x-1, y) && g.movesX(x-1, y) {
			x--
			rev = append(rev, proj.Segment{Thread: int(w.x.t), Upto: x})
		} else {
			y--
			rev = append(rev, proj.Segment{Thread: int(w.y.t), Upto: y})
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// lockBits numbers the window's locks (at most 64: more leave the pattern
// unsearched) and fills the locks held at each position.
func (g *grid) lockBits() bool {
	bit := map[int32]uint{}
	ok := true
	num := func(l int32) uint64 {
		b, seen := bit[l]
		if !seen {
			if len(bit) == 64 {
				ok = false
				return 0
			}
			b = uint(len(bit))
			bit[l] = b
		}
		return 1 << b
	}
	sets := func(init []hold, evs []model.Event) (w, r []uint64) {
		w, r = make([]uint64, len(evs)+1), make([]uint64, len(evs)+1)
		for _, h := range init {
			if h.read {
				r[0] |= num(h.lock)
			} else {
				w[0] |= num(h.lock)
			}
		}
		for i, ev := range evs {
			w[i+1], r[i+1] = w[i], r[i]
			h, ok := holdOf(g.ix.s, ev)
			if !ok {
				continue
			}
			set := &w[i+1]
			if h.read {
				set = &r[i+1]
			}
			if acquires(ev.Op) {
				*set |= num(h.lock)
			} else {
				*set &^= num(h.lock)
			}
		}
		return w, r
	}
	g.hx, g.rx = sets(g.w.x.held, g.w.x.ev)
	g.hy, g.ry = sets(g.w.y.held, g.w.y.ev)
	for _, h := range g.w.blocked {
		if h.read {
			g.blockR |= num(h.lock)
		} else {
			g.blockW |= num(h.lock)
		}
	}
	return ok
}

// leadIn is the run from the start to the grid: C, then X and Y to the
// window's start (the one C leaves holding a lock first).
func (w *window) leadIn() []proj.Segment {
	segs := append([]proj.Segment(nil), w.lead...)
	var ins []proj.Segment
	for _, sd := range []*side{&w.x, &w.y} {
		if sd.s > w.ctx[sd.t] {
			in := proj.Segment{Thread: int(sd.t), Upto: sd.s - 1}
			if len(sd.heldAtC) > 0 {
				ins = append([]proj.Segment{in}, ins...)
			} else {
				ins = append(ins, in)
			}
		}
	}
	return append(segs, ins...)
}

// merge appends moves to segs, one segment per stretch of one thread.
func merge(segs, moves []proj.Segment) []proj.Segment {
	for _, m := range moves {
		if n := len(segs); n > 0 && segs[n-1].Thread == m.Thread {
			segs[n-1].Upto = m.Upto
			continue
		}
		segs = append(segs, m)
	}
	return segs
}
