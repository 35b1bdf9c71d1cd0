package predict

import (
	"github.com/conc-dev/conc/predict/internal/pair"
	"github.com/conc-dev/conc/trace"
)

// pairWalk is pair.Walk under the names the nested decision
// (pair_nested*.go) and the pairs' products (pair_product.go) read: vc and
// open are the walk's own slices (updated in place, never replaced), and
// forkVC is handed to the walk before each use, since the nested
// decision's meeting pass replaces it with its index pass's.
type pairWalk struct {
	w      *pair.Walk
	vc     [][]int64
	open   []bool
	forkVC [][]int64
}

func newPairWalk(k, locks int) *pairWalk {
	w := pair.NewWalk(k, locks)
	return &pairWalk{w: w, vc: w.Clocks(), open: w.Open(), forkVC: w.ForkVC}
}

// step moves the walk on by ev and returns its edge (pair.Walk.Step).
func (pw *pairWalk) step(ev *trace.Event) int64 {
	pw.w.ForkVC = pw.forkVC
	return pw.w.Step(ev)
}

// context is C for threads t1 and t2: the join of their forks' clocks.
func (pw *pairWalk) context(t1, t2 int) []int64 {
	pw.w.ForkVC = pw.forkVC
	return pw.w.Context(t1, t2)
}
