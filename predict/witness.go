package predict

import (
	"fmt"
	"io"
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// A witness is planned as positions in the threads' projections and then
// materialised from the spool: the run is written straight from the spool
// into its slots, without holding the prefixes it uses (Lemma 2's normal
// run needs thread i up to b and each link thread up to the later of its
// two events; the observed witness can be most of a long trace). A run of a
// straight-line projection fixes its paths (thread t takes edges 0, 1, … in
// order, and all threads' paths share one array), so what is kept per event
// is its model.Step: about 49 bytes an event.

// ref is an event of the projection: thread t's edge pos.
type ref struct {
	t   int
	pos int64
}

// segment runs thread t on to its edge upto (inclusive).
type segment struct {
	t    int
	upto int64
}

// plan is a witness as segments of threads and a cycle of conflicting events.
type plan struct {
	segs  []segment
	cycle [][2]ref
	// observed, when set, stands for segs: the observed order itself.
	observed *observedCut
}

// observedCut is the observed order as a plan: the trace's events in trace
// order, thread t's cut to its first cut[t] edges. Laid out as segments it
// would take one per change of thread, 16 bytes for most of the events of a
// long witness.
type observedCut struct {
	cut []int64
	// tail, when set, is an edge of its thread (its cut) run after all
	// the others: the two-thread reordering's e2 (pair_hb.go).
	tail *ref
}

// materialised is a plan made concrete: the witness over the projection
// program, the program's names (its threads' automata are left empty: the
// run is a prefix of the projection by construction), and what package
// verify needs to check the run without them.
type materialised struct {
	w     *model.Witness
	names *model.Program
	// forkedBy[u] is the thread whose fork of u lies in the prefix program
	// (its prefix and the edge after it), -1 if none; finished[u] reports
	// that u's path runs to the end of its projection.
	forkedBy []int
	finished []bool
	// dropSync: the run is one of the projection without its lock, fork
	// and join events (--ignore-sync), so no thread waits for a fork.
	dropSync bool
}

// materialised is materialise's end, and a batch's (all_batch.go): the run with its cycle, paths and the
// prefix program's facts.
func (s *summary) materialised(pl plan, need []int64, run []model.Step, at map[ref]int, dropSync, lockEdges bool) (*materialised, error) {
	w := &model.Witness{Run: run, Paths: straightPaths(need), LockEdges: lockEdges}
	for _, c := range pl.cycle {
		from, to := at[c[0]], at[c[1]]
		if from < 0 || to < 0 {
			return nil, fmt.Errorf("predict: internal error: cycle event %v or %v not in the witness run", c[0], c[1])
		}
		w.Cycle = append(w.Cycle, model.Conflict{From: from, To: to})
	}
	m := &materialised{w: model.WrapUnarySync(w), names: s.program(make([]*autoBuilder, len(need)), s.vars, s.locks)}
	m.forkedBy, m.finished = s.prefixEnds(need, dropSync)
	m.dropSync = dropSync
	return m, nil
}

// materialise reads the edges the plan needs from the spool and builds the
// run, the paths and the cycle (as run indices). With lock edges, a lock,
// fork or join event outside a transaction is then written as its unary
// transaction, begin, event, end (model.WrapUnarySync): two more steps for
// each such event, which costs one copy of the run when there are any.
func (s *summary) materialise(sp *spool, pl plan, dropSync, lockEdges bool) (*materialised, error) {
	need := pl.need(len(s.threads))
	at := map[ref]int{} // run index of each cycle event
	for _, c := range pl.cycle {
		at[c[0]], at[c[1]] = -1, -1
	}
	var run []model.Step
	var err error
	if pl.observed != nil {
		run, err = s.observedRun(sp, pl.observed, need, at, dropSync)
	} else {
		run, err = s.plannedRun(sp, pl.segs, need, at, dropSync)
	}
	if err != nil {
		return nil, err
	}
	return s.materialised(pl, need, run, at, dropSync, lockEdges)
}

// straightPaths are the paths of straight-line threads that take their
// first need[t] edges: moves {0 0}, {1 0}, … for every thread, so they
// share one array (each path's capacity ends at its length, so appending
// to one copies it; nothing writes into a witness's paths).
func straightPaths(need []int64) [][]model.Move {
	moves := make([]model.Move, slices.Max(append([]int64{0}, need...)))
	for q := range moves {
		moves[q].From = int32(q)
	}
	paths := make([][]model.Move, len(need))
	for t, n := range need {
		paths[t] = moves[:n:n]
	}
	return paths
}

// need is how many edges of each thread's projection the plan runs.
func (pl plan) need(threads int) []int64 {
	need := make([]int64, threads)
	if pl.observed != nil {
		copy(need, pl.observed.cut)
		if tl := pl.observed.tail; tl != nil {
			need[tl.t] = max(need[tl.t], tl.pos+1)
		}
		return need
	}
	for _, sg := range pl.segs {
		need[sg.t] = max(need[sg.t], sg.upto+1)
	}
	return need
}

// prefixEnds is what the prefix program (each thread's first need[t] edges
// and the one after, where there is one) says of forks and ends; with
// synchronisation dropped it forks no thread.
func (s *summary) prefixEnds(need []int64, dropSync bool) (forkedBy []int, finished []bool) {
	forkedBy, finished = make([]int, len(need)), make([]bool, len(need))
	for u := range need {
		forkedBy[u] = -1
		f, ok := s.forker[int32(u)]
		if ok && !dropSync && f.pos < min(need[f.t]+1, s.threads[f.t].edges) {
			forkedBy[u] = f.t
		}
		finished[u] = need[u] >= s.threads[u].edges
	}
	return forkedBy, finished
}

// observedRun is the run of an observed plan: the spool's edges in order,
// each thread's up to its cut.
func (s *summary) observedRun(sp *spool, oc *observedCut, need []int64, at map[ref]int, dropSync bool) ([]model.Step, error) {
	total := int64(0)
	for _, n := range need {
		total += n
	}
	run := make([]model.Step, 0, total)
	var tail []model.Step // edges past a thread's cut, run last
	var tailAt []int64
	err := s.eachEdge(sp, need, dropSync, func(t int, q int64, ev model.Event) {
		if ev.Op == model.OpSkip {
			return
		}
		if q >= oc.cut[t] {
			tail, tailAt = append(tail, model.Step{Thread: int32(t), Ev: ev}), append(tailAt, q)
			return
		}
		if _, ok := at[ref{t, q}]; ok {
			at[ref{t, q}] = len(run)
		}
		run = append(run, model.Step{Thread: int32(t), Ev: ev})
	})
	for x, st := range tail {
		if r := (ref{int(st.Thread), tailAt[x]}); hasRef(at, r) {
			at[r] = len(run)
		}
		run = append(run, st)
	}
	return run, err
}

// block is a segment's new edges, first to last, and the slot (an index
// into the run with epsilon moves still in it) of the first.
type block struct {
	first, last, slot int64
}

// plannedRun lays the segments out as slots, fills each slot from the
// spool as its edge comes by, then closes up the epsilon moves' slots.
func (s *summary) plannedRun(sp *spool, segs []segment, need []int64, at map[ref]int, dropSync bool) ([]model.Step, error) {
	blocks := make([][]block, len(need)) // per thread, in edge order
	cursor := make([]int64, len(need))
	total := int64(0)
	for _, sg := range segs {
		if sg.upto < cursor[sg.t] {
			continue
		}
		blocks[sg.t] = append(blocks[sg.t], block{cursor[sg.t], sg.upto, total})
		total += sg.upto + 1 - cursor[sg.t]
		cursor[sg.t] = sg.upto + 1
	}
	run := make([]model.Step, total)
	slotOf := map[int64]ref{} // the cycle events' slots
	next := make([]int, len(need))
	err := s.eachEdge(sp, need, dropSync, func(t int, q int64, ev model.Event) {
		bs := blocks[t]
		for bs[next[t]].last < q {
			next[t]++
		}
		b := bs[next[t]]
		slot := b.slot + q - b.first
		run[slot] = model.Step{Thread: int32(t), Ev: ev}
		if _, ok := at[ref{t, q}]; ok {
			slotOf[slot] = ref{t, q}
		}
	})
	if err != nil {
		return nil, err
	}
	n := 0
	for slot, st := range run {
		if st.Ev.Op == model.OpSkip {
			continue
		}
		if r, ok := slotOf[int64(slot)]; ok {
			at[r] = n
		}
		run[n] = st
		n++
	}
	return run[:n:n], nil
}

// eachEdge reads the projection's edges from the spool in trace order and
// calls f with thread t's edge q for q below need[t]. It stops once every
// thread has its need, and fails if a thread has fewer edges than it needs.
func (s *summary) eachEdge(sp *spool, need []int64, dropSync bool, f func(t int, q int64, ev model.Event)) error {
	taken := make([]int64, len(need))
	open := make([]bool, len(need))
	left := 0 // threads still short of their need
	for _, n := range need {
		if n > 0 {
			left++
		}
	}
	r := sp.reader()
	var ev trace.Event
	for left > 0 {
		if err := r.next(&ev); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		t := int(ev.Thread)
		if taken[t] >= need[t] {
			continue
		}
		evs, n := projected(&ev, open[t], dropSync, model.Pos{File: s.name, Line: ev.Line})
		for k := 0; k < n && taken[t] < need[t]; k++ {
			f(t, taken[t], evs[k])
			taken[t]++
			switch evs[k].Op {
			case model.OpBegin:
				open[t] = true
			case model.OpEnd:
				open[t] = false
			}
		}
		if taken[t] >= need[t] {
			left--
		}
	}
	for t := range need {
		if taken[t] < need[t] {
			return fmt.Errorf("predict: internal error: thread %d has %d edges, the witness needs %d", t, taken[t], need[t])
		}
	}
	return nil
}

func hasRef(at map[ref]int, r ref) bool {
	_, ok := at[r]
	return ok
}
