package all

import (
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/internal/chain"
	"github.com/conc-dev/conc/predict/internal/nested"
	"github.com/conc-dev/conc/predict/internal/pair"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/predict/internal/sites"
	"github.com/conc-dev/conc/trace"
)

// The finders of conc predict --all, each going on after a hit: the
// lock-free scan (internal/chain/scan.go), the lock-aware two-thread
// pattern (internal/pair/lock.go), the happens-before one
// (internal/pair/hb.go) and step 5c's (internal/nested). Each adds its
// patterns to the collector (collect.go).

// scanAll is the lock-free scan (internal/chain/deepen.go's passes) going on
// after each interrupted transaction; it stops deepening once a pass found a
// group (a longer chain among many threads is what the budget is for). It
// returns the chainer, at the depth of its last pass, for the witnesses.
func scanAll(x *predict.Projection, col *collector) (*chain.Chainer, error) {
	c := x.Chainer()
	var tr *sites.Tracker // each pass's: a pass rereads the trace from its start
	hit := func(pr chain.Interrupted, ev *trace.Event) bool {
		if g, first := col.addAt(tr, srcScan, pr.Thread, pr.P, ev); first {
			g.pats[srcScan].scan = pr
		}
		return false
	}
	err := c.Deepen(x.Options().Tuning.Deepen, func() (bool, error) {
		tr = sites.NewTracker(len(x.Summary().Threads))
		_, _, err := c.ScanEach(x.Spool(), x.Users(), tr.Step, hit)
		return len(col.groups) > 0, err
	})
	x.BudgetReason(c)
	return c, err
}

// pairsLocked is internal/pair/lock.go's search over the whole index
// (a first pass that indexes, a second that meets every e2 with it),
// going on after each hit. It reports false when the deadline cut it
// short.
func pairsLocked(x *predict.Projection, col *collector) (bool, error) {
	s := x.Summary()
	px := pair.NewIndexer(s)
	done, err := eachEvent(x, px.Add)
	if err != nil || !done {
		return false, err
	}
	mt := pair.NewMeeter(s, px.Index())
	tr := sites.NewTracker(len(s.Threads))
	return eachEvent(x, func(ev *trace.Event) {
		tr.Step(ev)
		f, ok := mt.Step(ev)
		if !ok {
			return
		}
		if g, first := col.addAt(tr, srcLock, f.T1, f.E1, ev); first {
			g.pats[srcLock].lock = f
		}
	})
}

// pairsHB is internal/pair/hb.go's pass going on after each hit.
func pairsHB(x *predict.Projection, col *collector) (bool, error) {
	ps := pair.NewHBScan(x.Summary())
	return eachEvent(x, func(ev *trace.Event) {
		f, ok := ps.Step(ev)
		if !ok {
			return
		}
		e1, e2 := sites.OfLetter(f.E1L, f.LocE1), sites.OfLetter(f.E2L, f.LocE2)
		if g, first := col.add(srcHB, f.T1, e1, e2, f.LineE1); first {
			g.pats[srcHB].hb = f
		}
	})
}

// eachEvent is one pass over the spool; it reports false when the
// deadline cut it short.
func eachEvent(x *predict.Projection, f func(*trace.Event)) (bool, error) {
	ctx := x.Context()
	return proj.SpoolEach(x.Spool(), func() bool { return ctx.Err() != nil }, func(ev *trace.Event) bool {
		f(ev)
		return true
	})
}

// nestedAll is step 5c's passes (internal/nested) going on after each hit:
// every pattern of a one-variable two-thread cycle, so that under nested
// locking the groups of such cycles are all listed. Nothing when the
// locking is not nested; a pass stopped by the decision's own limits
// (nested.MaxSize, the meeting's work) leaves the groups it found, and says
// so (col.cut: the listing's incomplete).
func nestedAll(x *predict.Projection, col *collector) (bool, error) {
	s, sp, ctx := x.Summary(), x.Spool(), x.Context()
	nx, whole, err := nested.Index(s, sp, x.NestLimit(), func() bool { return ctx.Err() != nil })
	switch {
	case err != nil || ctx.Err() != nil:
		return false, err
	case !whole:
		col.cut = nestCut
		return true, nil
	case nx.NotNested() != "":
		return true, nil
	}
	tr := sites.NewTracker(len(s.Threads))
	m := nested.NewMeeter(s, nx, func() bool { return ctx.Err() != nil })
	whole, err = proj.SpoolEach(sp, m.Over, func(ev *trace.Event) bool {
		tr.Step(ev)
		return m.Step(ev, func(f nested.Find) bool {
			if g, first := col.addAt(tr, srcNested, f.T1, f.E1, ev); first {
				g.pats[srcNested].nested = f
			}
			return true
		})
	})
	if !whole && ctx.Err() == nil {
		col.cut = nestCut
	}
	return ctx.Err() == nil, err
}

// nestCut is the listing's incomplete when step 5c's passes stopped at
// their own limits.
const nestCut = "the linear two-thread decision stopped at its limits (classes and histories, or classes met per event): groups of one-variable two-thread cycles may be missing"
