package proj

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// Expand turns a witness of the reduced program into a plan over the full
// projection: each step of the reduced run brings its thread up to the
// original edge it stands for (so the dropped events before it come along),
// and a join first brings the joined thread to its end. The dropped events
// conflict with no other thread, and their locks are private, so the run
// stays lock-valid and its cycle is still a cycle. A witness that does not
// fit the reduced program is an error (the engine's: a WitnessError).
func (rd *Reduced) Expand(w *model.Witness) (Plan, error) {
	// One run step a move: without the begin and end that wrap a lock,
	// fork or join event under lock edges (materialise puts them back).
	w, err := model.UnwrapUnarySync(rd.Program, w)
	if err != nil {
		return Plan{}, err
	}
	edge, err := rd.pathEdges(w)
	if err != nil {
		return Plan{}, err
	}
	pl, refs, err := rd.runSegments(w, edge)
	if err != nil {
		return Plan{}, err
	}
	for i, c := range w.Cycle {
		if min(c.From, c.To) < 0 || max(c.From, c.To) >= len(refs) {
			return Plan{}, fmt.Errorf("cycle pair %d (%d -> %d): index out of the run (length %d)", i, c.From, c.To, len(refs))
		}
		pl.Cycle = append(pl.Cycle, [2]Ref{refs[c.From], refs[c.To]})
	}
	return pl, nil
}

// pathEdges is, per thread, the reduced edges its witness path takes
// (skips left out).
func (rd *Reduced) pathEdges(w *model.Witness) ([][]int64, error) {
	k := len(rd.Orig)
	edge := make([][]int64, k)
	for t, path := range w.Paths {
		if t >= k {
			return nil, fmt.Errorf("witness has %d paths for %d threads", len(w.Paths), k)
		}
		a := rd.Program.Threads[t].Auto
		for _, m := range path {
			if m.From < 0 || m.Edge < 0 || int(m.From) >= len(a.Out) || int(m.Edge) >= len(a.Out[m.From]) {
				return nil, fmt.Errorf("thread %d has no move %v", t, m)
			}
			if a.Out[m.From][m.Edge].Ev.Op != model.OpSkip {
				edge[t] = append(edge[t], int64(m.From))
			}
		}
	}
	return edge, nil
}

// runSegments brings each run step's thread up to the original edge the
// step stands for (a join first bringing the joined thread to its end),
// and returns each step's edge of the full projection.
func (rd *Reduced) runSegments(w *model.Witness, edge [][]int64) (Plan, []Ref, error) {
	k := len(rd.Orig)
	var pl Plan
	refs := make([]Ref, len(w.Run))
	next := make([]int, k)
	for x, st := range w.Run {
		t := int(st.Thread)
		if t < 0 || t >= k || next[t] >= len(edge[t]) {
			return Plan{}, nil, fmt.Errorf("run step %d of thread %d is not on its path", x, t)
		}
		if u := int(st.Ev.Target); st.Ev.Op == model.OpJoin && u >= 0 && u < k && rd.Full[u] > 0 {
			pl.Segs = append(pl.Segs, Segment{u, rd.Full[u] - 1})
		}
		refs[x] = Ref{t, rd.Orig[t][edge[t][next[t]]]}
		next[t]++
		pl.Segs = append(pl.Segs, Segment{t, refs[x].Edge})
	}
	return pl, refs, nil
}
