package batch

import (
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// Run is one plan's witness run, filled during a batch's pass (Builder)
// and then made a witness and verified.
type Run struct {
	Plan     proj.Plan
	DropSync bool // the run is one of the projection without its synchronisation
	// Materialised is the run made a witness (Build), Replays whether it
	// passes the verification, and Schedule then its schedule.
	Materialised *proj.Materialised
	Replays      bool
	Schedule     Schedule

	need   []int64
	cyc    [][]int64 // per thread: the edges on the cycle
	at     map[proj.Ref]int
	run    []model.Step
	blocks [][]proj.Block // planned: per thread, as plannedRun lays them out
	slots  int64          // and the run's slots
	slotOf map[int64]proj.Ref
	tail   []model.Step // observed: edges past the cut, run last
	tailAt []int64
}

// NewRun is the run of plan pl over k threads, laid out (a planned run's
// blocks) but not filled.
func NewRun(pl proj.Plan, k int, dropSync bool) *Run {
	f := &Run{Plan: pl, need: pl.Need(k), DropSync: dropSync, cyc: make([][]int64, k), at: map[proj.Ref]int{}}
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
	f.blocks, f.slotOf = make([][]proj.Block, k), map[int64]proj.Ref{}
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

// Edges is how many edges the run takes, all threads together: what a
// batch is bounded by.
func (f *Run) Edges() int64 { return sum(f.need) }

// Observed reports a run in observed order (its plan a cut), which takes
// its edges as they come by; a planned run is copied block by block.
func (f *Run) Observed() bool { return f.Plan.Observed != nil }

// alloc makes room for the run, once the run is in a batch.
func (f *Run) alloc() {
	if f.Observed() {
		f.run = make([]model.Step, 0, sum(f.need))
	} else {
		f.run = make([]model.Step, f.slots)
	}
}

// edge takes thread t's edge q (below f.need[t]) into an observed run;
// the edges of a thread come in order, so its next cycle edge is a cursor.
func (f *Run) edge(t int, q int64, ev model.Event) {
	if ev.Op == model.OpSkip {
		return
	}
	st := model.Step{Thread: int32(t), Ev: ev}
	if q >= f.Plan.Observed.Cut[t] {
		f.tail, f.tailAt = append(f.tail, st), append(f.tailAt, q)
		return
	}
	if c := f.cyc[t]; len(c) > 0 && c[0] == q {
		f.cyc[t] = c[1:]
		f.at[proj.Ref{Thread: t, Edge: q}] = len(f.run)
	}
	f.run = append(f.run, st)
}

// copyBlocks lays a planned run out from the threads' edges (firsts[t]
// holds thread t's first edges), a block at a time, as plannedRun does one
// edge at a time.
func (f *Run) copyBlocks(firsts [][]model.Step) {
	for t, bs := range f.blocks {
		for _, b := range bs {
			copy(f.run[b.Slot:b.Slot+b.Last+1-b.First], firsts[t][b.First:b.Last+1])
		}
		f.cycleSlots(t)
	}
}

// cycleSlots notes the slots of thread t's cycle edges in a planned run.
func (f *Run) cycleSlots(t int) {
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
func (f *Run) close() {
	if f.Observed() {
		for x, st := range f.tail {
			if r := (proj.Ref{Thread: int(st.Thread), Edge: f.tailAt[x]}); proj.HasRef(f.at, r) {
				f.at[r] = len(f.run)
			}
			f.run = append(f.run, st)
		}
		f.tail, f.tailAt = nil, nil
		return
	}
	if !f.DropSync { // no epsilon move: every slot is the run's
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

func sum(xs []int64) int64 {
	n := int64(0)
	for _, x := range xs {
		n += x
	}
	return n
}
