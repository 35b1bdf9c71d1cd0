package blocks

import (
	"github.com/conc-dev/conc/predict/internal/proj"
)

// The decision: the block test's patterns, each searched for a run in
// every pair of transactions that has it, until one's run is accepted.
// No pattern proves the pair criterion for every reordering; so does a
// search in which every pattern of every pair was searched exactly and
// none has a run (the test is only a necessary condition, the grid is the
// decision). Otherwise what was not found is no proof.

// Options bound a decision.
type Options struct {
	// MaxWork bounds the work: the test's comparisons, the grids' cells
	// and the edges read for their windows (0: no bound).
	MaxWork int64
	// MaxGrid bounds the cells of a grid searched whole (0: maxGrid).
	MaxGrid int64
	// MoreWork bounds the work after the first run accepted (0: none),
	// spent looking for a better one.
	MoreWork int64
	// Stop reports that the deadline has passed.
	Stop func() bool
}

// Found is a pattern of two transactions with its run.
type Found struct {
	In     Instance
	TX, TY int32 // the transactions, in their threads' Txns
	Plan   proj.Plan
}

// Accept is told of each pattern found with a run: ok when its witness
// is one (predict verifies it), stop to end the search.
type Accept func(Found) (ok, stop bool, err error)

// Result is what the decision concluded.
type Result struct {
	Patterns int64 // the patterns the test kept, in pairs of contents
	Searched int64 // pairs of transactions searched
	Found    int64 // runs accepted
	// Proved: no reordering has a pattern (the test kept none, or every
	// one was searched exactly and none has a run).
	Proved bool
	// Lost counts the searches that may have missed a run, by why.
	Lost map[Loss]int64
	Stop string // "budget", "deadline" or, after a run was accepted, "enough" when one ended the search
	Work int64
}

// decider is one decision.
type decider struct {
	ix     *Index
	s      *proj.Summary
	sp     *proj.Spool
	o      Options
	lead   Lead
	accept Accept
	res    Result
	err    error
	test   int64 // the block test's work so far
	cells  int64 // the grids' cells and their windows' edges so far
	found  int64 // the work when the first run was accepted
}

// Decide runs the block test over ix and searches its patterns' runs.
func Decide(s *proj.Summary, sp *proj.Spool, ix *Index, o Options, lead Lead, accept Accept) (Result, error) {
	d := &decider{ix: ix, s: s, sp: sp, o: o, lead: lead, accept: accept}
	f := &filter{ix: ix}
	f.limit = func(work int64) bool {
		d.test = work
		return d.over(0)
	}
	f.emit = func(in Instance) bool {
		d.test = f.work
		d.res.Patterns++
		return d.contents(in)
	}
	f.pairs()
	d.res.Work = f.work + d.cells
	d.res.Proved = d.err == nil && d.res.Found == 0 && len(d.res.Lost) == 0 && d.res.Stop == ""
	return d.res, d.err
}

// maxGrid is the bound on a grid's cells.
func (d *decider) maxGrid() int64 {
	if d.o.MaxGrid > 0 {
		return d.o.MaxGrid
	}
	return maxGrid
}

// Loss is why a search may have missed a run.
type Loss string

const (
	LossMessages Loss = "messages or tokens (docs/spec.md §3), which the search leaves out"
	LossContext  Loss = "a fork or join whose context could not be run first (a thread that keeps a lock to its end, a thread forked and joined inside a pair's window)"
	LossBound    Loss = "a pair's grid over 2^24 cells or 64 locks"
	LossRefused  Loss = "a run that the verification refused"
)

// lost counts a search that may have missed a run.
func (d *decider) lost(l Loss) {
	if l == "" {
		return
	}
	if d.res.Lost == nil {
		d.res.Lost = map[Loss]int64{}
	}
	d.res.Lost[l]++
}

// over reports that the budget (with more work to come) or the deadline
// ends the search. The deadline is looked at every 1,024 units of the
// test's work, and before every pair's search.
func (d *decider) over(more int64) bool {
	switch {
	case d.res.Stop != "":
	case d.res.Found > 0 && d.o.MoreWork > 0 && d.test+d.cells+more > d.found+d.o.MoreWork:
		d.res.Stop = "enough"
	case d.o.MaxWork > 0 && d.test+d.cells+more > d.o.MaxWork:
		d.res.Stop = "budget"
	case d.o.Stop != nil && (more > 0 || d.test&1023 == 0) && d.o.Stop():
		d.res.Stop = "deadline"
	}
	return d.res.Stop != ""
}

// contents searches a pattern in every pair of transactions with its
// contents; it reports false to end the decision.
func (d *decider) contents(in Instance) bool {
	tx, ty := d.ix.Threads[in.X], d.ix.Threads[in.Y]
	for _, ti := range tx.Contents[in.CX].Txns {
		for _, ui := range ty.Contents[in.CY].Txns {
			if !d.pair(in, ti, ui) {
				return false
			}
		}
	}
	return true
}

// pair searches the pattern in transactions ti of thread X and ui of
// Y; it reports false to end the decision.
func (d *decider) pair(in Instance, ti, ui int32) bool {
	t, u := &d.ix.Threads[in.X].Txns[ti], &d.ix.Threads[in.Y].Txns[ui]
	if d.over(min(d.maxGrid(), max(1, (t.Free1-t.Free0+1)*(u.Free1-u.Free0+1)))) { // about the grid's cells, searched only up to maxGrid
		return false
	}
	d.res.Searched++
	w, err := d.ix.openWindow(d.s, d.sp, in.X, ti, in.Y, ui, d.lead, d.maxGrid())
	if err != nil {
		d.err = err
		return false
	}
	d.cells += w.read
	return d.search(w, Found{In: in, TX: ti, TY: ui})
}

// search looks for the run of one pattern in the window of its pair; it
// reports false to end the decision.
func (d *decider) search(w *window, f Found) bool {
	in := f.In
	a0, b0, a1, b1 := w.x.acc[in.A0], w.x.acc[in.B0], w.y.acc[in.A1], w.y.acc[in.B1]
	moves, found, loss, cells := d.ix.searchGrid(w, a0, b0, a1, b1)
	d.cells += cells
	X, Y := int(in.X), int(in.Y)
	cycle := [][2]proj.Ref{{{Thread: X, Edge: a0}, {Thread: Y, Edge: a1}}, {{Thread: Y, Edge: b1}, {Thread: X, Edge: b0}}}
	if !found && (w.big || loss != "") {
		return d.others(w, f, cycle, loss)
	}
	if !found {
		d.lost(loss)
		return true
	}
	f.Plan = proj.Plan{Segs: merge(w.leadIn(), moves), Cycle: cycle}
	return d.offer(f, loss)
}

// others tries the runs of straight.go for a pattern the grid did not
// decide; it reports false to end the decision.
func (d *decider) others(w *window, f Found, cycle [][2]proj.Ref, loss Loss) bool {
	if loss == "" {
		loss = LossBound
	}
	pl, err := d.observed(f)
	if err != nil {
		d.err = err
		return false
	}
	pl.Cycle = cycle
	f.Plan = pl
	if refused, more := d.try(f); !refused {
		return more
	}
	moves, found, err := d.straight(w, cycle[0][0].Edge, cycle[1][1].Edge, cycle[0][1].Edge, cycle[1][0].Edge)
	if err != nil {
		d.err = err
		return false
	}
	if !found {
		d.lost(loss)
		return true
	}
	f.Plan = proj.Plan{Segs: merge(w.leadIn(), moves), Cycle: cycle}
	return d.offer(f, loss)
}

// try offers a plan that may not be a run: refused is no answer and no
// loss; otherwise it was accepted, or an error ended the decision (more:
// go on).
func (d *decider) try(f Found) (refused, more bool) {
	ok, stop, err := d.accept(f)
	switch {
	case err != nil:
		d.err = err
		return false, false
	case ok:
		d.accepted()
		return false, !stop
	}
	return true, true
}

// accepted counts a run accepted.
func (d *decider) accepted() {
	if d.res.Found == 0 {
		d.found = d.test + d.cells
	}
	d.res.Found++
}

// offer gives a plan to accept; it reports false to end the decision.
func (d *decider) offer(f Found, loss Loss) bool {
	ok, stop, err := d.accept(f)
	switch {
	case err != nil:
		d.err = err
		return false
	case ok:
		d.accepted()
	case loss != "": // the window's loss is why the run is not one
		d.lost(loss)
	default:
		d.lost(LossRefused)
	}
	return !stop
}
