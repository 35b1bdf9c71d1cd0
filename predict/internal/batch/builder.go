package batch

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// Builder fills and verifies batches of runs over one spool; it keeps the
// threads' first edges across batches (edges.go).
type Builder struct {
	s         *proj.Summary
	sp        *proj.Spool
	lockEdges bool
	// wrappers marks the run events a written witness leaves out
	// (predict's unary wrappers), which its schedule leaves out too.
	wrappers func(w *model.Witness, threads int) []bool
	cache    *edgeCache // the threads' first edges, across batches
	cacheOff bool       // given up: it would outgrow cacheEdges
}

// NewBuilder is a builder over the spool sp of the summary s; its
// witnesses have lock edges when lockEdges is set, and their schedules
// leave out the run events wrappers marks.
func NewBuilder(s *proj.Summary, sp *proj.Spool, lockEdges bool, wrappers func(*model.Witness, int) []bool) *Builder {
	return &Builder{s: s, sp: sp, lockEdges: lockEdges, wrappers: wrappers}
}

// DropCache lets the threads' first edges go: every later batch reads the
// spool, as when the cache would outgrow cacheEdges (the tests compare
// both ways).
func (b *Builder) DropCache() { b.cache, b.cacheOff = nil, true }

// Build fills the runs in one pass and verifies each: Materialised, Replays
// and Schedule are then set. The runs share DropSync.
func (b *Builder) Build(runs []*Run) error {
	if err := b.fill(runs); err != nil {
		return err
	}
	return b.verify(runs)
}

// fill is the batch's one pass over the spool (EachEdge for every plan at
// once): it stops once every plan has its edges. A planned run's blocks
// are then copied from the threads' first edges, kept once for the batch
// (at most as many as its runs have); an observed run takes its edges as
// they come by. A batch of planned runs the cache holds reads nothing.
func (b *Builder) fill(runs []*Run) error {
	if len(runs) == 0 {
		return nil
	}
	k := len(b.s.Threads)
	most := make([]int64, k)    // per thread: the most edges a plan needs
	byNeed := make([][]*Run, k) // per thread: the observed runs that need its edges, most first
	planned := make([]int64, k) // per thread: the most edges a planned run needs
	for _, f := range runs {
		for t, n := range f.need {
			most[t] = max(most[t], n)
			switch {
			case !f.Observed():
				planned[t] = max(planned[t], n)
			case n > 0:
				byNeed[t] = append(byNeed[t], f)
			}
		}
		f.alloc()
	}
	if !slices.ContainsFunc(runs, (*Run).Observed) {
		cached, ok, err := b.cachedEdges(planned, runs[0].DropSync)
		if err != nil {
			return err
		}
		if ok {
			for _, f := range runs {
				f.copyCached(cached, b.s.Name)
			}
			return nil
		}
	}
	return b.pass(runs, most, planned, byNeed)
}

// pass reads the spool for a batch: each observed run takes the edges it
// needs as they come by (byNeed[t]: those that need thread t's, most
// first), and thread t's first planned[t] edges are kept for the planned
// runs' blocks.
func (b *Builder) pass(runs []*Run, most, planned []int64, byNeed [][]*Run) error {
	firsts := make([][]model.Step, len(most)) // per thread: its first edges, for the planned runs
	for t := range byNeed {
		firsts[t] = make([]model.Step, 0, planned[t])
		slices.SortStableFunc(byNeed[t], func(x, y *Run) int { return cmp.Compare(y.need[t], x.need[t]) })
	}
	err := b.s.EachEdge(b.sp, most, runs[0].DropSync, func(t int, q int64, ev model.Event) {
		if len(firsts[t]) < cap(firsts[t]) {
			firsts[t] = append(firsts[t], model.Step{Thread: int32(t), Ev: ev})
		}
		for _, f := range byNeed[t] {
			if q >= f.need[t] {
				break
			}
			f.edge(t, q, ev)
		}
	})
	if err != nil {
		return err
	}
	for _, f := range runs {
		if !f.Observed() {
			f.copyBlocks(firsts)
		}
	}
	return nil
}

// verify materialises the filled runs and verifies them
// (internal/proj/gate.go), on as many cores as Go runs on; a run that
// replays gets its schedule there too, the other pass over it that the
// JSON needs.
func (b *Builder) verify(runs []*Run) error {
	for _, f := range runs {
		f.close()
		m, err := b.s.Materialised(f.Plan, f.need, f.run, f.at, f.DropSync, b.lockEdges)
		if err != nil {
			return err
		}
		f.Materialised, f.run = m, nil
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(runs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(len(runs)); i = next.Add(1) - 1 {
				f := runs[i]
				if f.Replays = b.s.Replays(f.Materialised) == nil; f.Replays {
					m := f.Materialised
					f.Schedule = ScheduleOf(m.Names, m.Witness, b.wrappers(m.Witness, len(m.Names.Threads)))
				}
			}
		}()
	}
	wg.Wait()
	return nil
}
