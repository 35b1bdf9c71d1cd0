package predict

import (
	"github.com/conc-dev/conc/predict/internal/chain"
	"github.com/conc-dev/conc/predict/internal/nested"
	"github.com/conc-dev/conc/predict/internal/pair"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/predict/internal/sites"
	"github.com/conc-dev/conc/trace"
)

// The finders of conc predict --all, each going on after a hit: the
// lock-free scan (internal/chain/scan.go), the lock-aware two-thread pattern
// (internal/pair/lock.go) and the happens-before one (internal/pair/hb.go). A hit is only
// counted in its group; the first hit of each finder in a group is kept,
// so that its witness can be built later (a few words a group, never one a
// pattern).

// The finders, in the order a group's witness is tried.
const (
	srcAnswer = iota // predict's own answer (with locks, fork or join)
	srcScan          // the lock-free scan's normal run
	srcLock          // two threads through their locks
	srcHB            // two threads, happens-before
	srcNested        // two threads and one variable (step 5c)
	nSources
)

// sourceNames name the finders in the JSON and the text.
var sourceNames = [nSources]string{"predict's answer", "normal run", "two threads through their locks", "two-thread reordering",
	"two threads and one variable"}

// allPattern is a finder's first pattern in a group.
type allPattern struct {
	scan   chain.Interrupted
	lock   pair.LockFind
	hb     pair.HBFind
	nested nested.Find
	answer *Outcome
}

// allGroup is one group while the finders run.
type allGroup struct {
	sites  [2]sites.Site // e1 and e2 of its first pattern
	thread int           // the interrupted transaction's thread (first pattern)
	first  int64         // the least line of an e1
	counts [nSources]int64
	has    [nSources]bool
	pats   [nSources]allPattern
}

// collector deduplicates the patterns by signature.
type collector struct {
	index  map[sites.Key]int
	groups []*allGroup
	// misses counts patterns whose e1 the site tracker did not hold (none
	// ever should: the tests check it).
	misses int
	// cut says why a finder that lists every group of its kind stopped
	// short of it (its own limits; "": it did not).
	cut string
}

func newCollector() *collector { return &collector{index: map[sites.Key]int{}} }

// add counts a pattern of finder src (thread t's e1 at line1, and e2) and
// returns its group and whether it is the finder's first there (then the
// caller keeps the pattern).
func (c *collector) add(src, t int, e1, e2 sites.Site, line1 int64) (*allGroup, bool) {
	k := sites.KeyOf(e1, e2)
	n, ok := c.index[k]
	if !ok {
		n = len(c.groups)
		c.index[k] = n
		c.groups = append(c.groups, &allGroup{sites: [2]sites.Site{e1, e2}, thread: t, first: line1})
	}
	g := c.groups[n]
	g.counts[src]++
	if line1 < g.first {
		g.first, g.thread = line1, t
	}
	first := !g.has[src]
	g.has[src] = true
	return g, first
}

// addAt is add for a pattern whose e1 is thread t's edge e1, which the
// site tracker holds, and whose e2 is ev; a pattern whose e1 it does not
// hold is counted in misses and added nowhere.
func (c *collector) addAt(tr *sites.Tracker, src, t int, e1 int64, ev *trace.Event) (*allGroup, bool) {
	a, ok := tr.Lookup(t, e1)
	if !ok {
		c.misses++
		return nil, false
	}
	return c.add(src, t, a.Site, sites.Of(ev), a.Line)
}

// allScan is the lock-free scan (internal/chain/deepen.go's passes) going on
// after each interrupted transaction; it stops deepening once a pass found a
// group (a longer chain among many threads is what the budget is for). It
// returns the chainer, at the depth of its last pass, for the witnesses.
func (p *predictor) allScan(col *collector) (*chain.Chainer, error) {
	c := p.newChainer()
	var tr *sites.Tracker // each pass's: a pass rereads the trace from its start
	hit := func(pr chain.Interrupted, ev *trace.Event) bool {
		if g, first := col.addAt(tr, srcScan, pr.Thread, pr.P, ev); first {
			g.pats[srcScan].scan = pr
		}
		return false
	}
	err := c.Deepen(p.o.Tuning.Deepen, func() (bool, error) {
		tr = sites.NewTracker(len(p.s.Threads))
		_, _, err := c.ScanEach(p.sp, p.u, tr.Step, hit)
		return len(col.groups) > 0, err
	})
	p.budgetReason(c)
	return c, err
}

// allPairsLocked is internal/pair/lock.go's search over the whole index
// (a first pass that indexes, a second that meets every e2 with it),
// going on after each hit. It reports false when the deadline cut it
// short.
func (p *predictor) allPairsLocked(col *collector) (bool, error) {
	px := pair.NewIndexer(p.s)
	done, err := p.eachEvent(px.Add)
	if err != nil || !done {
		return false, err
	}
	mt := pair.NewMeeter(p.s, px.Index())
	tr := sites.NewTracker(len(p.s.Threads))
	return p.eachEvent(func(ev *trace.Event) {
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

// allPairsHB is internal/pair/hb.go's pass going on after each hit.
func (p *predictor) allPairsHB(col *collector) (bool, error) {
	ps := pair.NewHBScan(p.s)
	return p.eachEvent(func(ev *trace.Event) {
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
func (p *predictor) eachEvent(f func(*trace.Event)) (bool, error) {
	return proj.SpoolEach(p.sp, func() bool { return p.ctx.Err() != nil }, func(ev *trace.Event) bool {
		f(ev)
		return true
	})
}

// allNested is step 5c's passes (internal/nested) going on after each hit:
// every pattern of a one-variable two-thread cycle, so that under nested
// locking the groups of such cycles are all listed. Nothing when the
// locking is not nested; a pass stopped by the decision's own limits
// (nested.MaxSize, the meeting's work) leaves the groups it found, and says
// so (col.cut: the listing's incomplete).
func (p *predictor) allNested(col *collector) (bool, error) {
	nx, whole, err := nested.Index(p.s, p.sp, p.nestLimit(), func() bool { return p.ctx.Err() != nil })
	switch {
	case err != nil || p.ctx.Err() != nil:
		return false, err
	case !whole:
		col.cut = nestCut
		return true, nil
	case nx.NotNested() != "":
		return true, nil
	}
	tr := sites.NewTracker(len(p.s.Threads))
	m := nested.NewMeeter(p.s, nx, func() bool { return p.ctx.Err() != nil })
	whole, err = proj.SpoolEach(p.sp, m.Over, func(ev *trace.Event) bool {
		tr.Step(ev)
		return m.Step(ev, func(f nested.Find) bool {
			if g, first := col.addAt(tr, srcNested, f.T1, f.E1, ev); first {
				g.pats[srcNested].nested = f
			}
			return true
		})
	})
	if !whole && p.ctx.Err() == nil {
		col.cut = nestCut
	}
	return p.ctx.Err() == nil, err
}

// nestCut is the listing's incomplete when step 5c's passes stopped at
// their own limits.
const nestCut = "the linear two-thread decision stopped at its limits (classes and histories, or classes met per event): groups of one-variable two-thread cycles may be missing"
