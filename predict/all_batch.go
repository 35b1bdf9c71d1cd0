package predict

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// The witnesses of conc predict --all in batches (docs/predict.md, "Every
// group (--all)"): materialising a witness is a pass over the spool (most
// of a 10⁶-event trace for the long runs of a large one: 20-40 ms), so the
// JSON's thousand groups took a minute one pass each. A batch plans the
// next groups' witnesses, fills all their runs in one pass, and verifies
// each as materialise's would be (internal/proj/gate.go): a run is a prefix of each
// thread's projection, so every plan takes thread t's edges 0, 1, … as
// they come by, and one decoding of an event serves them all. A witness
// that fails the verification has its group's other finders tried one at
// a time, as before. The verifications of a batch run on as many cores as
// Go has. Memory: the batch's runs, at most batchEdges edges in all (or
// one witness larger than that), never every group's.

// batchGroups and batchEdges bound a batch: groups, and the planned edges
// of their runs together (about 40 bytes each as steps).
const (
	batchGroups = 64
	batchEdges  = 1 << 19
)

// fill is one plan's run being filled during a batch's pass.
type fill struct {
	g, src   int // the group and the finder whose plan it is
	pl       proj.Plan
	need     []int64
	engine   string
	why      string
	cyc      [][]int64 // per thread: the edges on the cycle
	at       map[proj.Ref]int
	run      []model.Step
	blocks   [][]proj.Block // planned: per thread, as plannedRun lays them out
	slots    int64          // and the run's slots
	next     []int
	slotOf   map[int64]proj.Ref
	tail     []model.Step // observed: edges past the cut, run last
	tailAt   []int64
	dropSync bool
	m        *proj.Materialised // the run made a witness (verifyBatch)
	ok       bool               // it replays
	sch      Schedule           // then its schedule
}

// buildBatch builds the witnesses of group k and the groups after it not
// built yet, as many as a batch holds, and keeps those that replay for
// Witness; the groups none of whose witnesses replays are dropped.
func (a *AllOutcome) buildBatch(k int) error {
	if a.c != nil {
		if err := a.prePlanScans(k); err != nil {
			return err
		}
	}
	var fills []*fill
	edges := int64(0)
	for g := k; g < len(a.groups) && len(fills) < a.batchSize(); g++ {
		if a.Built(g) {
			continue
		}
		f, err := a.spareOr(g)
		if err != nil {
			return err
		}
		if f == nil {
			continue // answered (predict's own witness), or planned in none: built one by one
		}
		n := sum(f.need)
		if n > a.maxBatchEdges() && len(fills) == 0 {
			return a.buildAlone(f) // no copy of its threads' edges: as large as itself
		}
		if len(fills) > 0 && (edges+n > a.maxBatchEdges() || f.dropSync != fills[0].dropSync) {
			a.spare = f // the next batch's first
			break
		}
		edges += n
		fills = append(fills, f)
	}
	if err := a.fillBatch(fills); err != nil {
		return err
	}
	if err := a.verifyBatch(fills); err != nil {
		return err
	}
	for _, f := range fills {
		if err := a.keepOrRetry(f); err != nil {
			return err
		}
	}
	return nil
}

// spareOr is the plan the last batch had no room for, if it is group
// g's, or else group g's plan (planFirst).
func (a *AllOutcome) spareOr(g int) (*fill, error) {
	if f := a.spare; f != nil && f.g == g {
		a.spare = nil
		return f, nil
	}
	return a.planFirst(g)
}

// verifyBatch materialises the filled runs and verifies them (internal/proj/gate.go),
// on as many cores as Go runs on; a run that replays gets its schedule
// (ScheduleOf) there too, the other pass over it that the JSON needs.
func (a *AllOutcome) verifyBatch(fills []*fill) error {
	s := a.p.s
	for _, f := range fills {
		f.close()
		m, err := s.Materialised(f.pl, f.need, f.run, f.at, f.dropSync, a.p.o.Check.LockEdges)
		if err != nil {
			return err
		}
		f.m, f.run = m, nil
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(fills)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(len(fills)); i = next.Add(1) - 1 {
				f := fills[i]
				if f.ok = s.Replays(f.m) == nil; f.ok {
					f.sch = ScheduleOf(f.m.Names, f.m.Witness)
				}
			}
		}()
	}
	wg.Wait()
	return nil
}

// buildAlone builds a witness larger than a batch as materialise does,
// without keeping its threads' edges besides its run.
func (a *AllOutcome) buildAlone(f *fill) error {
	a.filled[3]++
	out, ok, err := a.p.verified(f.pl, f.dropSync, f.engine, f.why)
	switch {
	case err != nil:
		return err
	case ok:
		a.ready[f.g] = out
		a.Groups[f.g].Source = sourceNames[f.src]
		return nil
	}
	out, err = a.buildFrom(f.g, f.src+1)
	if out != nil {
		a.ready[f.g] = out
	}
	return err
}

// maxBatchEdges is batchEdges, or the tests' smaller bound.
func (a *AllOutcome) maxBatchEdges() int64 {
	if a.batchEdges > 0 {
		return a.batchEdges
	}
	return batchEdges
}

// batchSize is how many groups a batch plans: batchGroups, or fewer when
// the caller said it shows fewer (Ahead).
func (a *AllOutcome) batchSize() int {
	if a.Ahead > 0 {
		return min(a.Ahead, batchGroups)
	}
	return batchGroups
}

// planFirst plans group g's witness from its first finder with a plan.
// Predict's own answer needs none: it is kept as it is. A finder whose
// plan cannot be made (a normal run's chain not found again) is passed
// over; with none left the group is built one finder at a time (and
// dropped).
func (a *AllOutcome) planFirst(g int) (*fill, error) {
	grp := a.groups[g]
	for src := range nSources {
		if !grp.has[src] {
			continue
		}
		if src == srcAnswer {
			a.ready[g] = grp.pats[src].answer
			a.Groups[g].Source = sourceNames[src]
			return nil, nil
		}
		pl, ok, engine, why, dropSync, err := a.planOf(g, src)
		if err != nil {
			return nil, err
		}
		if ok {
			return a.newFill(g, src, pl, engine, why, dropSync), nil
		}
	}
	a.Groups[g].Dropped = true
	return nil, nil
}

func (a *AllOutcome) newFill(g, src int, pl proj.Plan, engine, why string, dropSync bool) *fill {
	k := len(a.p.s.Threads)
	f := &fill{g: g, src: src, pl: pl, need: pl.Need(k), engine: engine, why: why, dropSync: dropSync,
		cyc: make([][]int64, k), at: map[proj.Ref]int{}}
	for _, c := range pl.Cycle {
		for _, r := range c {
			if _, ok := f.at[r]; !ok {
				f.at[r] = -1
				f.cyc[r.Thread] = append(f.cyc[r.Thread], r.Edge)
			}
		}
	}
	for _, c := range f.cyc {
		slices.Sort(c)
	}
	if pl.Observed != nil {
		return f
	}
	f.blocks, f.next, f.slotOf = make([][]proj.Block, k), make([]int, k), map[int64]proj.Ref{}
	cursor, total := make([]int64, k), int64(0)
	for _, sg := range pl.Segs { // as plannedRun lays them out
		if sg.Upto < cursor[sg.Thread] {
			continue
		}
		f.blocks[sg.Thread] = append(f.blocks[sg.Thread], proj.Block{First: cursor[sg.Thread], Last: sg.Upto, Slot: total})
		total += sg.Upto + 1 - cursor[sg.Thread]
		cursor[sg.Thread] = sg.Upto + 1
	}
	f.slots = total
	return f
}

// alloc makes room for the run, once the fill is in a batch.
func (f *fill) alloc() {
	if f.pl.Observed != nil {
		f.run = make([]model.Step, 0, sum(f.need))
	} else {
		f.run = make([]model.Step, f.slots)
	}
}

// edge takes thread t's edge q (below f.need[t]) into an observed run;
// the edges of a thread come in order, so its next cycle edge is a cursor.
func (f *fill) edge(t int, q int64, ev model.Event) {
	if ev.Op == model.OpSkip {
		return
	}
	st := model.Step{Thread: int32(t), Ev: ev}
	if q >= f.pl.Observed.Cut[t] {
		f.tail, f.tailAt = append(f.tail, st), append(f.tailAt, q)
		return
	}
	if c := f.cyc[t]; len(c) > 0 && c[0] == q {
		f.cyc[t] = c[1:]
		f.at[proj.Ref{Thread: t, Edge: q}] = len(f.run)
	}
	f.run = append(f.run, st)
}

// copyBlocks lays a planned run out from the threads' edges (proj[t]
// holds thread t's first edges), a block at a time, as plannedRun does one
// edge at a time.
func (f *fill) copyBlocks(proj [][]model.Step) {
	for t, bs := range f.blocks {
		for _, b := range bs {
			copy(f.run[b.Slot:b.Slot+b.Last+1-b.First], proj[t][b.First:b.Last+1])
		}
		f.cycleSlots(t)
	}
}

// cycleSlots notes the slots of thread t's cycle edges in a planned run.
func (f *fill) cycleSlots(t int) {
	for _, q := range f.cyc[t] {
		for _, b := range f.blocks[t] {
			if b.First <= q && q <= b.Last {
				f.slotOf[b.Slot+q-b.First] = proj.Ref{Thread: t, Edge: q}
			}
		}
	}
}

// close finishes the run as plannedRun and observedRun do: a planned
// run's epsilon moves' slots closed up, an observed run's tail appended.
func (f *fill) close() {
	if f.pl.Observed != nil {
		for x, st := range f.tail {
			if r := (proj.Ref{Thread: int(st.Thread), Edge: f.tailAt[x]}); proj.HasRef(f.at, r) {
				f.at[r] = len(f.run)
			}
			f.run = append(f.run, st)
		}
		f.tail, f.tailAt = nil, nil
		return
	}
	if !f.dropSync { // no epsilon move: every slot is the run's
		for slot, r := range f.slotOf {
			f.at[r] = int(slot)
		}
		f.blocks, f.slotOf = nil, nil
		return
	}
	n := 0
	for slot, st := range f.run {
		if st.Ev.Op == model.OpSkip {
			continue
		}
		if r, ok := f.slotOf[int64(slot)]; ok {
			f.at[r] = n
		}
		f.run[n] = st
		n++
	}
	f.run = f.run[:n:n]
	f.blocks, f.slotOf = nil, nil
}

// fillBatch is the batch's one pass over the spool (eachEdge for every
// plan at once): it stops once every plan has its edges. A planned run's
// blocks are then copied from the threads' first edges, kept once for the
// batch (at most as many as its runs have); an observed run takes its
// edges as they come by.
func (a *AllOutcome) fillBatch(fills []*fill) error {
	if len(fills) == 0 {
		return nil
	}
	s := a.p.s
	k := len(s.Threads)
	most := make([]int64, k)        // per thread: the most edges a plan needs
	proj := make([][]model.Step, k) // per thread: its first edges, for the planned runs
	byNeed := make([][]*fill, k)    // per thread: the observed runs that need its edges, most first
	planned := make([]int64, k)
	for _, f := range fills {
		for t, n := range f.need {
			most[t] = max(most[t], n)
			switch {
			case f.pl.Observed == nil:
				planned[t] = max(planned[t], n)
			case n > 0:
				byNeed[t] = append(byNeed[t], f)
			}
		}
	}
	for _, f := range fills {
		f.alloc()
	}
	if observed := slices.ContainsFunc(fills, func(f *fill) bool { return f.pl.Observed != nil }); !observed {
		cached, ok, err := a.cachedEdges(planned, fills[0].dropSync)
		if err != nil {
			return err
		}
		if ok {
			for _, f := range fills {
				f.copyCached(cached, s.Name)
				a.filled[0]++
			}
			return nil
		}
	}
	for t := range byNeed {
		proj[t] = make([]model.Step, 0, planned[t])
		slices.SortStableFunc(byNeed[t], func(x, y *fill) int { return cmp.Compare(y.need[t], x.need[t]) })
	}
	err := s.EachEdge(a.p.sp, most, fills[0].dropSync, func(t int, q int64, ev model.Event) {
		if len(proj[t]) < cap(proj[t]) {
			proj[t] = append(proj[t], model.Step{Thread: int32(t), Ev: ev})
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
	a.copyAll(fills, proj)
	return nil
}

// copyAll lays the planned runs out from the threads' first edges (the
// observed ones are filled already).
func (a *AllOutcome) copyAll(fills []*fill, proj [][]model.Step) {
	for _, f := range fills {
		if f.pl.Observed == nil {
			f.copyBlocks(proj)
			a.filled[0]++
		} else {
			a.filled[1]++
		}
	}
}

// keepOrRetry keeps a verified run's witness for Witness (and its
// schedule for Schedule); one that does not replay has its group's later finders tried
// one at a time.
func (a *AllOutcome) keepOrRetry(f *fill) error {
	if f.ok {
		res := engines.Result{Engine: f.engine, Verdict: engines.Violation, Witness: f.m.Witness, Reason: f.why}
		a.ready[f.g] = &Outcome{Result: res, Program: f.m.Names}
		a.schedules[f.g] = f.sch
		a.Groups[f.g].Source = sourceNames[f.src]
		return nil
	}
	a.filled[2]++
	out, err := a.buildFrom(f.g, f.src+1)
	if out != nil {
		a.ready[f.g] = out
	}
	return err
}

func sum(xs []int64) int64 {
	n := int64(0)
	for _, x := range xs {
		n += x
	}
	return n
}
