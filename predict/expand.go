package predict

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// expand turns a witness of the reduced program into a plan over the full
// projection: each step of the reduced run brings its thread up to the
// original edge it stands for (so the dropped events before it come along),
// and a join first brings the joined thread to its end. The dropped events
// conflict with no other thread, and their locks are private, so the run
// stays lock-valid and its cycle is still a cycle.
func (rd *reduced) expand(w *model.Witness) (plan, error) {
	// One run step a move: without the begin and end that wrap a lock,
	// fork or join event under lock edges (materialise puts them back).
	w, err := model.UnwrapUnarySync(rd.p, w)
	if err != nil {
		return plan{}, fmt.Errorf("predict: internal error: %v", err)
	}
	k := len(rd.orig)
	edge := make([][]int64, k) // per thread: the reduced edges its run steps took
	for t, path := range w.Paths {
		if t >= k {
			return plan{}, fmt.Errorf("predict: internal error: witness has %d paths for %d threads", len(w.Paths), k)
		}
		a := rd.p.Threads[t].Auto
		for _, m := range path {
			if int(m.From) >= len(a.Out) || int(m.Edge) >= len(a.Out[m.From]) {
				return plan{}, fmt.Errorf("predict: internal error: thread %d has no move %v", t, m)
			}
			if a.Out[m.From][m.Edge].Ev.Op != model.OpSkip {
				edge[t] = append(edge[t], int64(m.From))
			}
		}
	}
	var pl plan
	refs := make([]ref, len(w.Run))
	next := make([]int, k)
	for x, st := range w.Run {
		t := int(st.Thread)
		if next[t] >= len(edge[t]) {
			return plan{}, fmt.Errorf("predict: internal error: run step %d of thread %d is not on its path", x, t)
		}
		if st.Ev.Op == model.OpJoin {
			if u := int(st.Ev.Target); rd.full[u] > 0 {
				pl.segs = append(pl.segs, segment{u, rd.full[u] - 1})
			}
		}
		refs[x] = ref{t, rd.orig[t][edge[t][next[t]]]}
		next[t]++
		pl.segs = append(pl.segs, segment{t, refs[x].pos})
	}
	for _, c := range w.Cycle {
		pl.cycle = append(pl.cycle, [2]ref{refs[c.From], refs[c.To]})
	}
	return pl, nil
}
