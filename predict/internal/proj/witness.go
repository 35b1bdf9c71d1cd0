package proj

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

// Ref is an event of the projection: thread t's edge pos.
type Ref struct {
	Thread int
	Edge   int64
}

// Segment runs thread t on to its edge upto (inclusive).
type Segment struct {
	Thread int
	Upto   int64
}

// Plan is a witness as segments of threads and a cycle of conflicting events.
type Plan struct {
	Segs  []Segment
	Cycle [][2]Ref
	// Observed, when set, stands for segs: the observed order itself.
	Observed *ObservedCut
}

// ObservedCut is the observed order as a plan: the trace's events in trace
// order, thread t's cut to its first cut[t] edges. Laid out as segments it
// would take one per change of thread, 16 bytes for most of the events of a
// long witness.
type ObservedCut struct {
	Cut []int64
	// Tail, when set, is an edge of its thread (its cut) run after all
	// the others: the two-thread reordering's e2 (predict/internal/pair/hb.go).
	Tail *Ref
}

// Materialised is a plan made concrete: the witness over the projection
// program, the program's names (its threads' automata are left empty: the
// run is a prefix of the projection by construction), and what package
// verify needs to check the run without them.
type Materialised struct {
	Witness *model.Witness
	Names   *model.Program
	// forkedBy[u] is the thread whose fork of u lies in the prefix program
	// (its prefix and the edge after it), -1 if none; finished[u] reports
	// that u's path runs to the end of its projection.
	forkedBy []int
	finished []bool
	// dropSync: the run is one of the projection without its lock, fork
	// and join events (--ignore-sync), so no thread waits for a fork.
	dropSync bool
}

// Materialised is Materialise's end, and a batch's (predict/internal/batch):
// the run with its cycle, paths and the prefix program's facts.
func (s *Summary) Materialised(pl Plan, need []int64, run []model.Step, at map[Ref]int, dropSync, lockEdges bool) (*Materialised, error) {
	w := &model.Witness{Run: run, Paths: straightPaths(need), LockEdges: lockEdges}
	for _, c := range pl.Cycle {
		from, to := at[c[0]], at[c[1]]
		if from < 0 || to < 0 {
			return nil, fmt.Errorf("predict: internal error: cycle event %v or %v not in the witness run", c[0], c[1])
		}
		w.Cycle = append(w.Cycle, model.Conflict{From: from, To: to})
	}
	m := &Materialised{Witness: model.WrapUnarySync(w), Names: s.Program(make([]*AutoBuilder, len(need)), s.Vars, s.Locks)}
	m.forkedBy, m.finished = s.prefixEnds(need, dropSync)
	m.dropSync = dropSync
	return m, nil
}

// Materialise reads the edges the plan needs from the spool and builds the
// run, the paths and the cycle (as run indices). With lock edges, a lock,
// fork or join event outside a transaction is then written as its unary
// transaction, begin, event, end (model.WrapUnarySync): two more steps for
// each such event, which costs one copy of the run when there are any.
func (s *Summary) Materialise(sp *Spool, pl Plan, dropSync, lockEdges bool) (*Materialised, error) {
	need := pl.Need(len(s.Threads))
	at := map[Ref]int{} // run index of each cycle event
	for _, c := range pl.Cycle {
		at[c[0]], at[c[1]] = -1, -1
	}
	var run []model.Step
	var err error
	if pl.Observed != nil {
		run, err = s.observedRun(sp, pl.Observed, need, at, dropSync)
	} else {
		run, err = s.plannedRun(sp, pl.Segs, need, at, dropSync)
	}
	if err != nil {
		return nil, err
	}
	return s.Materialised(pl, need, run, at, dropSync, lockEdges)
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

// Need is how many edges of each thread's projection the plan runs.
func (pl Plan) Need(threads int) []int64 {
	need := make([]int64, threads)
	if pl.Observed != nil {
		copy(need, pl.Observed.Cut)
		if tl := pl.Observed.Tail; tl != nil {
			need[tl.Thread] = max(need[tl.Thread], tl.Edge+1)
		}
		return need
	}
	for _, sg := range pl.Segs {
		need[sg.Thread] = max(need[sg.Thread], sg.Upto+1)
	}
	return need
}

// prefixEnds is what the prefix program (each thread's first need[t] edges
// and the one after, where there is one) says of forks and ends; with
// synchronisation dropped it forks no thread.
func (s *Summary) prefixEnds(need []int64, dropSync bool) (forkedBy []int, finished []bool) {
	forkedBy, finished = make([]int, len(need)), make([]bool, len(need))
	for u := range need {
		forkedBy[u] = -1
		f, ok := s.Forker[int32(u)]
		if ok && !dropSync && f.Edge < min(need[f.Thread]+1, s.Threads[f.Thread].edges) {
			forkedBy[u] = f.Thread
		}
		finished[u] = need[u] >= s.Threads[u].edges
	}
	return forkedBy, finished
}

// observedRun is the run of an observed plan: the spool's edges in order,
// each thread's up to its cut.
func (s *Summary) observedRun(sp *Spool, oc *ObservedCut, need []int64, at map[Ref]int, dropSync bool) ([]model.Step, error) {
	total := int64(0)
	for _, n := range need {
		total += n
	}
	run := make([]model.Step, 0, total)
	var tail []model.Step // edges past a thread's cut, run last
	var tailAt []int64
	err := s.EachEdge(sp, need, dropSync, func(t int, q int64, ev model.Event) {
		if ev.Op == model.OpSkip {
			return
		}
		if q >= oc.Cut[t] {
			tail, tailAt = append(tail, model.Step{Thread: int32(t), Ev: ev}), append(tailAt, q)
			return
		}
		if _, ok := at[Ref{t, q}]; ok {
			at[Ref{t, q}] = len(run)
		}
		run = append(run, model.Step{Thread: int32(t), Ev: ev})
	})
	for x, st := range tail {
		if r := (Ref{int(st.Thread), tailAt[x]}); HasRef(at, r) {
			at[r] = len(run)
		}
		run = append(run, st)
	}
	return run, err
}

// Block is a segment's new edges, first to last, and the slot (an index
// into the run with epsilon moves still in it) of the first.
type Block struct {
	First, Last, Slot int64
}

// plannedRun lays the segments out as slots, fills each slot from the
// spool as its edge comes by, then closes up the epsilon moves' slots.
func (s *Summary) plannedRun(sp *Spool, segs []Segment, need []int64, at map[Ref]int, dropSync bool) ([]model.Step, error) {
	blocks := make([][]Block, len(need)) // per thread, in edge order
	cursor := make([]int64, len(need))
	total := int64(0)
	for _, sg := range segs {
		if sg.Upto < cursor[sg.Thread] {
			continue
		}
		blocks[sg.Thread] = append(blocks[sg.Thread], Block{cursor[sg.Thread], sg.Upto, total})
		total += sg.Upto + 1 - cursor[sg.Thread]
		cursor[sg.Thread] = sg.Upto + 1
	}
	run := make([]model.Step, total)
	slotOf := map[int64]Ref{} // the cycle events' slots
	next := make([]int, len(need))
	err := s.EachEdge(sp, need, dropSync, func(t int, q int64, ev model.Event) {
		bs := blocks[t]
		for bs[next[t]].Last < q {
			next[t]++
		}
		b := bs[next[t]]
		slot := b.Slot + q - b.First
		run[slot] = model.Step{Thread: int32(t), Ev: ev}
		if _, ok := at[Ref{t, q}]; ok {
			slotOf[slot] = Ref{t, q}
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

// PrefixSegments is a prefix of the projection (each thread's first
// upto[t] edges) as segments in its observed order: what a plan runs
// first when a pattern needs what happens before its threads start (the
// two-thread finders' context C).
func (s *Summary) PrefixSegments(sp *Spool, upto []int64) ([]Segment, error) {
	var segs []Segment
	err := s.EachEdge(sp, upto, false, func(t int, q int64, _ model.Event) {
		if n := len(segs); n > 0 && segs[n-1].Thread == t {
			segs[n-1].Upto = q
			return
		}
		segs = append(segs, Segment{Thread: t, Upto: q})
	})
	return segs, err
}

// EachEdge reads the projection's edges from the spool in trace order and
// calls f with thread t's edge q for q below need[t]. It stops once every
// thread has its need, and fails if a thread has fewer edges than it needs.
func (s *Summary) EachEdge(sp *Spool, need []int64, dropSync bool, f func(t int, q int64, ev model.Event)) error {
	taken := make([]int64, len(need))
	open := make([]bool, len(need))
	left := 0 // threads still short of their need
	for _, n := range need {
		if n > 0 {
			left++
		}
	}
	r := sp.Reader()
	var ev trace.Event
	for left > 0 {
		if err := r.Next(&ev); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		t := int(ev.Thread)
		if taken[t] >= need[t] {
			continue
		}
		evs, n := Projected(&ev, open[t], dropSync, model.Pos{File: s.Name, Line: ev.Line})
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

func HasRef(at map[Ref]int, r Ref) bool {
	_, ok := at[r]
	return ok
}
