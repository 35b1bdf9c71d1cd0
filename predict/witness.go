package predict

import (
	"fmt"
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// A witness is planned as positions in the threads' projections and then
// materialised from the spool: only the prefixes the run uses are read into
// memory (Lemma 2's normal run needs thread i up to b and each link thread up
// to the later of its two events).

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
}

// materialised is a plan made concrete: the witness over the projection
// program and the program of the prefixes it uses (for the report).
type materialised struct {
	w      *model.Witness
	prefix *model.Program
}

// materialise reads the prefixes the plan needs from the spool and builds
// the run, the paths and the cycle (as run indices).
func (s *summary) materialise(sp *spool, pl plan, dropSync, lockEdges bool) (*materialised, error) {
	need := make([]int64, len(s.threads))
	for _, sg := range pl.segs {
		need[sg.t] = max(need[sg.t], sg.upto+1)
	}
	// One edge more than the run uses, where there is one: a thread the run
	// leaves unfinished is then unfinished in the prefix program too.
	bs, err := s.prefixes(sp, need, dropSync)
	if err != nil {
		return nil, err
	}
	w := &model.Witness{Paths: make([][]model.Move, len(bs)), LockEdges: lockEdges}
	total := int64(0)
	for t := range w.Paths {
		w.Paths[t] = make([]model.Move, 0, need[t])
		total += need[t]
	}
	w.Run = make([]model.Step, 0, total)
	at := map[ref]int{} // run index of each cycle event
	for _, c := range pl.cycle {
		at[c[0]], at[c[1]] = -1, -1
	}
	cursor := make([]int64, len(bs))
	for _, sg := range pl.segs {
		for q := cursor[sg.t]; q <= sg.upto; q++ {
			w.Paths[sg.t] = append(w.Paths[sg.t], model.Move{From: int32(q)})
			if ev := bs[sg.t].edges[q].Ev; ev.Op != model.OpSkip {
				if _, ok := at[ref{sg.t, q}]; ok {
					at[ref{sg.t, q}] = len(w.Run)
				}
				w.Run = append(w.Run, model.Step{Thread: int32(sg.t), Ev: ev})
			}
		}
		cursor[sg.t] = max(cursor[sg.t], sg.upto+1)
	}
	for _, c := range pl.cycle {
		from, to := at[c[0]], at[c[1]]
		if from < 0 || to < 0 {
			return nil, fmt.Errorf("predict: internal error: cycle event %v or %v not in the witness run", c[0], c[1])
		}
		w.Cycle = append(w.Cycle, model.Conflict{From: from, To: to})
	}
	return &materialised{w: w, prefix: s.program(bs, s.vars, s.locks)}, nil
}

// prefixes reads the first need[t] edges of every thread's projection, and
// the next one if there is one.
func (s *summary) prefixes(sp *spool, need []int64, dropSync bool) ([]*autoBuilder, error) {
	bs := make([]*autoBuilder, len(need))
	left := 0 // threads whose prefix is not read yet: the pass ends with the last
	for t := range bs {
		bs[t] = &autoBuilder{noOrig: true}
		bs[t].reserve(min(need[t]+1, s.threads[t].edges))
		if s.threads[t].edges > 0 { // every thread gets its edge past the run, if any
			left++
		}
	}
	r := sp.reader()
	var ev trace.Event
	for left > 0 {
		if err := r.next(&ev); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		b, t := bs[ev.Thread], ev.Thread
		want := min(need[t]+1, s.threads[t].edges)
		if int64(len(b.edges)) >= want {
			continue
		}
		evs, n := projected(&ev, b.open, dropSync, model.Pos{File: s.name, Line: int32(ev.Line)})
		for k := 0; k < n && int64(len(b.edges)) <= need[t]; k++ {
			b.add(evs[k], int64(len(b.edges)))
		}
		if int64(len(b.edges)) >= want {
			left--
		}
	}
	for t, b := range bs {
		if int64(len(b.edges)) < need[t] {
			return nil, fmt.Errorf("predict: internal error: thread %d has %d edges, the witness needs %d", t, len(b.edges), need[t])
		}
	}
	return bs, nil
}
