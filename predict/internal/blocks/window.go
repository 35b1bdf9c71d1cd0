package blocks

import (
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
)

// A pair of transactions, t of thread X and u of Y, is searched for a
// run in the grid of X's and Y's positions. The run starts with the
// context C (nothing without forks and joins; else what forks and joins
// make every run do first: context.go), then X and Y run alone to the
// window's start, the last positions before t and u where they hold no
// lock, and the grid runs from there to their first positions after t
// and u where they hold none. Without forks and joins the window loses no
// run: a run of the trace keeps its order of X's and Y's events when every
// other thread is left out, X and Y can wait at their lock-free
// positions, and what they do before and after the window touches
// neither t nor u (docs/predict.md). A window that may lose runs says
// why (loss).

// Lead starts a pair's run: it may grow the context C in place (other
// threads run on until they release the locks they hold where C leaves
// them) and returns C's run as segments (predict/internal/nested.Lead).
type Lead func(ctx []int64, x, y int) ([]proj.Segment, error)

// window is what a pair's grid needs: the context, and the two threads'
// sides.
type window struct {
	ctx     []int64        // C, edges per thread
	lead    []proj.Segment // C's run
	x, y    side
	blocked []hold // shared locks third threads hold where C leaves them
	read    int64  // the edges read from the spool for it (work)
	loss    Loss   // why a run of the pair may be lost by the window ("": none is)
	big     bool   // over maxGrid cells: its events are not kept (straight.go)
}

// side is one thread of a window.
type side struct {
	t       int32
	s, a    int64         // the grid's first and last positions
	start   int64         // its transaction's first edge
	e       int64         // its transaction ends here (the grid must reach it)
	acc     []int64       // the edges of its transaction's relevant accesses (Content.Acc's)
	ev      []model.Event // events from s
	held    []hold        // shared locks held at s
	heldAtC []hold        // shared locks it holds where C leaves it: its lead-in goes first
	forked  int64         // the other thread's edge that forks it (-1: none)
}

// openWindow reads the window of t (X's txn tx) and u (Y's txn ty).
func (ix *Index) openWindow(s *proj.Summary, sp *proj.Spool, x, tx, y, ty int32, lead Lead, bound int64) (*window, error) {
	t, u := &ix.Threads[x].Txns[tx], &ix.Threads[y].Txns[ty]
	w := &window{x: side{t: x, a: t.Free1, start: t.Start, e: t.End}, y: side{t: y, a: u.Free1, start: u.Start, e: u.End}}
	if ix.Messages {
		w.loss = LossMessages
	}
	if j := ix.joinOf(x, y); j >= 0 && j < w.x.a { // X waits for Y's end inside its window
		w.y.a = ix.Threads[y].Edges
	}
	if j := ix.joinOf(y, x); j >= 0 && j < w.y.a {
		w.x.a = ix.Threads[x].Edges
	}
	if err := ix.startWith(s, sp, w, t.Free0, u.Free0, lead); err != nil {
		return nil, err
	}
	w.x.s, w.y.s = max(t.Free0, w.ctx[x]), max(u.Free0, w.ctx[y])
	w.y.forked, w.x.forked = ix.forkOf(x, y), ix.forkOf(y, x)
	if w.y.forked >= w.x.s { // Y starts inside X's window: it cannot run ahead
		w.y.s = w.ctx[y]
	}
	if w.x.forked >= w.y.s {
		w.x.s = w.ctx[x]
	}
	// A thread that C leaves holding a lock may have to release it before
	// the other can run to its window: the other's window then starts at
	// its cut.
	if w.x.s == w.ctx[x] && !ix.lockFreeAt(x, w.x.s) {
		w.y.s = w.ctx[y]
	}
	if w.y.s == w.ctx[y] && !ix.lockFreeAt(y, w.y.s) {
		w.x.s = w.ctx[x]
	}
	w.big = (w.x.a-w.x.s+1)*(w.y.a-w.y.s+1) > bound
	if err := w.fill(s, sp, ix.u); err != nil {
		return nil, err
	}
	// C first loses no run when it leaves third threads holding no lock.
	if len(w.blocked) > 0 && w.loss == "" {
		w.loss = LossContext
	}
	return w, nil
}

// startWith fills the window's context C and its run: none without forks
// and joins; else what forks and joins make every run do first
// (fjContext), or, when that cannot be run first, the observed
// happens-before context, grown by lead.
func (ix *Index) startWith(s *proj.Summary, sp *proj.Spool, w *window, x0, y0 int64, lead Lead) error {
	w.ctx = make([]int64, len(ix.Threads))
	if !ix.ForkJoin {
		return nil
	}
	if c, ok := ix.fjContext(w, x0, y0); ok {
		segs, ok, err := ix.freeAndSchedule(s, sp, w, c, x0, y0)
		if err != nil || ok {
			w.ctx, w.lead = c, segs
			return err
		}
	}
	if w.loss == "" {
		w.loss = LossContext
	}
	w.ctx = ix.context(w.x.t, w.y.t, w.x.a, w.y.a)
	if lead == nil {
		return nil
	}
	segs, err := lead(w.ctx, int(w.x.t), int(w.y.t))
	w.lead = segs
	return err
}

// lockFreeAt reports that thread t holds no shared lock at position p,
// known at its epochs' starts and its end (false elsewhere).
func (ix *Index) lockFreeAt(t int32, p int64) bool {
	th := ix.Threads[t]
	if p == th.Edges {
		return !th.endHeld
	}
	i, ok := slices.BinarySearch(th.epochStart, p)
	return ok && !th.epochHeld[i]
}

// joinOf is thread x's edge that joins y, -1 when it does not.
func (ix *Index) joinOf(x, y int32) int64 {
	for _, j := range ix.Threads[x].joins {
		if j.other == y {
			return j.edge
		}
	}
	return -1
}

// forkOf is thread x's edge that forks y, -1 when it does not.
func (ix *Index) forkOf(x, y int32) int64 {
	for _, f := range ix.Threads[x].forks {
		if f.other == y {
			return f.edge
		}
	}
	return -1
}

// context is C: what happens before X's and Y's forks and before the
// ends of the other threads they join before xa and yb, in the observed
// happens-before order (so that its observed order is a run).
func (ix *Index) context(x, y int32, xa, yb int64) []int64 {
	c := make([]int64, len(ix.Threads))
	if !ix.ForkJoin || ix.forkVC == nil {
		return c
	}
	for _, t := range []int32{x, y} {
		if ix.forkVC[t] != nil {
			hb.Join(c, ix.forkVC[t])
		}
	}
	for _, side := range [2]struct {
		t, other int32
		upto     int64
	}{{x, y, xa}, {y, x, yb}} {
		for _, j := range ix.Threads[side.t].joins {
			if j.other != side.other && j.edge < side.upto {
				hb.Join(c, ix.endVC[j.other])
			}
		}
	}
	return c
}

// fill takes the window's events from the spool, with the locks held at
// its start and those C leaves third threads holding.
func (w *window) fill(s *proj.Summary, sp *proj.Spool, u *proj.Users) error {
	need := slices.Clone(w.ctx)
	need[w.x.t], need[w.y.t] = w.x.a, w.y.a
	for _, n := range need {
		w.read += n
	}
	held := make([][]hold, len(need))
	sides := map[int]*side{int(w.x.t): &w.x, int(w.y.t): &w.y}
	err := s.EachEdge(sp, need, false, func(t int, q int64, ev model.Event) {
		sd := sides[t]
		if sd != nil && q >= sd.start && q < sd.e && ev.Op.IsAccess() && u.Relevant(int32(t), profiles.LetterOf(ev)) {
			sd.acc = append(sd.acc, q)
		}
		switch {
		case sd != nil && q >= sd.s:
			if !w.big {
				sd.ev = append(sd.ev, ev)
			}
			return
		case sd == nil && q >= w.ctx[t]:
			return
		case sd != nil && q == w.ctx[t]:
			sd.heldAtC = slices.Clone(held[t])
		}
		if h, ok := holdOf(s, ev); ok {
			held[t] = h.apply(held[t], ev.Op)
		}
	})
	for t, h := range held {
		if sd := sides[t]; sd != nil {
			sd.held = h
			if w.ctx[t] == sd.s {
				sd.heldAtC = h
			}
		} else {
			w.blocked = append(w.blocked, h...)
		}
	}
	return err
}

// hold is a shared lock held, for writing or for reading (docs/spec.md
// §3's read locks: read holds exclude only write holds).
type hold struct {
	lock int32
	read bool
}

// holdOf is the hold an acquire or release (or read-acquire or
// read-release) of a shared lock concerns.
func holdOf(s *proj.Summary, ev model.Event) (hold, bool) {
	switch ev.Op {
	case model.OpAcquire, model.OpRelease, model.OpReadAcquire, model.OpReadRelease:
		return hold{ev.Target, ev.Op == model.OpReadAcquire || ev.Op == model.OpReadRelease}, s.SharedLock(ev.Target)
	}
	return hold{}, false
}

func acquires(op model.Op) bool { return op == model.OpAcquire || op == model.OpReadAcquire }

// apply takes or gives back h in the holds hs.
func (h hold) apply(hs []hold, op model.Op) []hold {
	if acquires(op) {
		return append(slices.Clone(hs), h)
	}
	i := slices.Index(hs, h)
	if i < 0 {
		return hs
	}
	return slices.Delete(slices.Clone(hs), i, i+1)
}
