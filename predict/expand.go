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
// stays lock-valid and its cycle is still a cycle. A witness that does not
// fit the reduced program is an error (the engine's: a WitnessError).
func (rd *reduced) expand(w *model.Witness) (plan, error) {
	// One run step a move: without the begin and end that wrap a lock,
	// fork or join event under lock edges (materialise puts them back).
	w, err := model.UnwrapUnarySync(rd.p, w)
	if err != nil {
		return plan{}, err
	}
	k := len(rd.orig)
	edge := make([][]int64, k) // per thread: the reduced edges its run steps took
	for t, path := range w.Paths {
		if t >= k {
			return plan{}, fmt.Errorf("witness has %d paths for %d threads", len(w.Paths), k)
		}
		a := rd.p.Threads[t].Auto
		for _, m := range path {
			if m.From < 0 || m.Edge < 0 || int(m.From) >= len(a.Out) || int(m.Edge) >= len(a.Out[m.From]) {
				return plan{}, fmt.Errorf("thread %d has no move %v", t, m)
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
		if t < 0 || t >= k || next[t] >= len(edge[t]) {
			return plan{}, fmt.Errorf("run step %d of thread %d is not on its path", x, t)
		}
		if st.Ev.Op == model.OpJoin {
			if u := int(st.Ev.Target); u >= 0 && u < k && rd.full[u] > 0 {
				pl.segs = append(pl.segs, segment{u, rd.full[u] - 1})
			}
		}
		refs[x] = ref{t, rd.orig[t][edge[t][next[t]]]}
		next[t]++
		pl.segs = append(pl.segs, segment{t, refs[x].pos})
	}
	for i, c := range w.Cycle {
		if min(c.From, c.To) < 0 || max(c.From, c.To) >= len(refs) {
			return plan{}, fmt.Errorf("cycle pair %d (%d -> %d): index out of the run (length %d)", i, c.From, c.To, len(refs))
		}
		pl.cycle = append(pl.cycle, [2]ref{refs[c.From], refs[c.To]})
	}
	return pl, nil
}
