package blocks

import (
	"slices"
	"sort"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// The context of a pair's run when the trace forks or joins: what every
// run must do before the grid, by forks and joins alone (hb.FJ): what
// precedes X's and Y's windows, and the whole of each third thread that X
// or Y joins inside its window. Every run that has the pattern contains
// it, and when it leaves every thread holding no lock, running it first
// loses no run: its third threads then hold nothing the pair needs, and
// X and Y wait at their cuts. It is run in the order of its lines as far
// as the locks let it (schedule). When it is not so (a thread left
// holding a lock, a joined thread that needs X or Y to move, a schedule
// that gets stuck), the observed happens-before context is used instead
// (Index.context), and what the grid does not find is no proof.

// epochAt is thread t's epoch at position p (its edge p's).
func (ix *Index) epochAt(t int32, p int64) int32 {
	starts := ix.Threads[t].epochStart
	return int32(sort.Search(len(starts), func(i int) bool { return starts[i] > p })) - 1
}

// fjContext is the context by forks and joins of the window's pair from
// positions x0 and y0 on, or false when X or Y would have to move
// inside its window for it.
func (ix *Index) fjContext(w *window, x0, y0 int64) ([]int64, bool) {
	c := make([]int64, len(ix.Threads))
	pair := func(u int32) bool { return u == w.x.t || u == w.y.t }
	add := func(t, e int32, third bool) {
		ix.fj.Each(t, e, func(u int32, n int64) {
			if !third || !pair(u) {
				c[u] = max(c[u], n)
			}
		})
	}
	starts := [2]int64{x0, y0}
	for range 4 { // the starts grow with c, c with the starts
		for i, sd := range []*side{&w.x, &w.y} {
			starts[i] = max(starts[i], c[sd.t])
			add(sd.t, ix.epochAt(sd.t, starts[i]), false)
		}
	}
	for i, sd := range []*side{&w.x, &w.y} {
		for _, j := range ix.Threads[sd.t].joins {
			if pair(j.other) || j.edge < starts[i] || j.edge >= sd.a {
				continue
			}
			add(sd.t, ix.epochAt(sd.t, j.edge+1), true)
			d := j.other
			last := ix.fj.Epochs(d) - 1
			if ix.fj.Before(d, last, w.x.t) > starts[0] || ix.fj.Before(d, last, w.y.t) > starts[1] {
				return nil, false // the joined thread needs the pair's window
			}
		}
	}
	return c, c[w.x.t] <= starts[0] && c[w.y.t] <= starts[1]
}

// freeAndSchedule schedules the context c, first moving each third thread
// it leaves holding a lock on to its next position holding none, with
// what forks and joins make that need (in place), as long as that needs
// no move of X or Y past their starts x0, y0; false when it cannot.
func (ix *Index) freeAndSchedule(s *proj.Summary, sp *proj.Spool, w *window, c []int64, x0, y0 int64) ([]proj.Segment, bool, error) {
	bx, by := max(x0, c[w.x.t]), max(y0, c[w.y.t])
	for range len(c) + 1 {
		segs, r, err := ix.schedule(s, sp, c)
		if err != nil || r == nil {
			return nil, false, err
		}
		holding := r.holding(w.x.t, w.y.t)
		if len(holding) == 0 {
			return segs, true, nil
		}
		for _, t := range holding {
			p, err := ix.nextFree(sp, t, c[t])
			if err != nil {
				return nil, false, err
			}
			c[t] = max(c[t], p)
			ix.fj.Each(t, ix.epochAt(t, max(p-1, 0)), func(u int32, n int64) { c[u] = max(c[u], n) })
		}
		if c[w.x.t] > bx || c[w.y.t] > by {
			return nil, false, nil
		}
	}
	return nil, false, nil
}

// nextFree is thread t's first position at or after from where it holds
// no shared lock (its end when there is none).
func (ix *Index) nextFree(sp *proj.Spool, t int32, from int64) (int64, error) {
	pos, open, at := int64(0), false, ix.Threads[t].Edges
	var held []hold
	_, err := proj.SpoolEach(sp, func() bool { return false }, func(ev *trace.Event) bool {
		if ev.Thread != t {
			return true
		}
		if h, ok := holdOf(ix.s, model.Event{Op: ev.Op, Target: ev.Target}); ok {
			held = h.apply(held, ev.Op)
		}
		switch ev.Op {
		case model.OpBegin:
			open = true
		case model.OpEnd:
			open = false
		}
		pos += proj.EdgesOf(ev, open)
		if pos >= from && len(held) == 0 {
			at = pos
			return false
		}
		return true
	})
	return at, err
}

// schedule runs the context c: each thread to its cut, the enabled event
// with the earliest line first. It returns the run and the runner at its
// end, nil when it gets stuck.
func (ix *Index) schedule(s *proj.Summary, sp *proj.Spool, c []int64) ([]proj.Segment, *runner, error) {
	evs := make([][]model.Event, len(c))
	if err := s.EachEdge(sp, c, false, func(t int, _ int64, ev model.Event) { evs[t] = append(evs[t], ev) }); err != nil {
		return nil, nil, err
	}
	r := &runner{ix: ix, evs: evs, pos: make([]int64, len(c)), owner: map[int32]int{}, readers: map[int32]int{},
		reads: map[int][]int32{}}
	var segs []proj.Segment
	for {
		t := r.next()
		if t < 0 {
			break
		}
		r.take(t)
		segs = merge(segs, []proj.Segment{{Thread: t, Upto: r.pos[t] - 1}})
	}
	for t := range c {
		if r.pos[t] < c[t] {
			return nil, nil, nil
		}
	}
	return segs, r, nil
}

// holding is the threads but x and y that hold a shared lock.
func (r *runner) holding(x, y int32) []int32 {
	var out []int32
	add := func(t int) {
		if int32(t) != x && int32(t) != y && !slices.Contains(out, int32(t)) {
			out = append(out, int32(t))
		}
	}
	for l, t := range r.owner {
		if t >= 0 && r.ix.shared(l) {
			add(t)
		}
	}
	for t, hs := range r.reads {
		if len(hs) > 0 {
			add(t)
		}
	}
	slices.Sort(out)
	return out
}

// runner runs a context.
type runner struct {
	ix      *Index
	evs     [][]model.Event
	pos     []int64
	owner   map[int32]int   // lock: its write holder, -1 free
	readers map[int32]int   // lock: its read holds
	reads   map[int][]int32 // thread: the shared locks it read-holds
}

// next is the enabled thread whose next event has the earliest line, -1
// when none is.
func (r *runner) next() int {
	best, line := -1, int64(0)
	for t, evs := range r.evs {
		if r.pos[t] == int64(len(evs)) || !r.enabled(t) {
			continue
		}
		if l := evs[r.pos[t]].Pos.Line; best < 0 || l < line {
			best, line = t, l
		}
	}
	return best
}

// enabled reports whether thread t may take its next event.
func (r *runner) enabled(t int) bool {
	if f, at, ok := r.ix.forker(int32(t)); ok && r.pos[f] <= at {
		return false
	}
	ev := r.evs[t][r.pos[t]]
	switch ev.Op {
	case model.OpAcquire, model.OpReadAcquire:
		h, held := r.owner[ev.Target]
		return (!held || h < 0) && (ev.Op == model.OpReadAcquire || r.readers[ev.Target] == 0)
	case model.OpJoin:
		u := ev.Target
		return r.pos[u] == r.ix.Threads[u].Edges
	}
	return true
}

// take runs thread t's next event.
func (r *runner) take(t int) {
	ev := r.evs[t][r.pos[t]]
	r.pos[t]++
	switch ev.Op {
	case model.OpAcquire:
		r.owner[ev.Target] = t
	case model.OpRelease:
		r.owner[ev.Target] = -1
	case model.OpReadAcquire:
		r.readers[ev.Target]++
		if r.ix.shared(ev.Target) {
			r.reads[t] = append(r.reads[t], ev.Target)
		}
	case model.OpReadRelease:
		r.readers[ev.Target]--
		if i := slices.Index(r.reads[t], ev.Target); i >= 0 {
			r.reads[t] = slices.Delete(r.reads[t], i, i+1)
		}
	}
}

// forker is the thread that forks t and the edge of its fork.
func (ix *Index) forker(t int32) (int, int64, bool) {
	f, ok := ix.forkedBy[t]
	return int(f.other), f.edge, ok
}
