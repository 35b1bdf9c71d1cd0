package predicted

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/atomicity"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// brokenPaths are the paths that break the transactions a witness run
// breaks by itself (docs/spec.md §1), by run index: the run is stepped
// through the monitor's atomicity tracker as a trace whose line i+1 is
// the run's event i.
func brokenPaths(w *model.Witness) [][]model.Conflict {
	k := atomicity.New(atomicity.Options{LockEdges: w.LockEdges})
	for i, s := range w.Run {
		k.Step(&trace.Event{Thread: s.Thread, Op: s.Ev.Op, Target: int32(s.Ev.Target), Loc: -1, Line: int64(i + 1)})
	}
	var paths [][]model.Conflict
	for _, b := range k.Finish().Broken {
		path := make([]model.Conflict, len(b.Path))
		for j, h := range b.Path {
			path[j] = model.Conflict{From: int(h.From.Line - 1), To: int(h.To.Line - 1)}
		}
		paths = append(paths, path)
	}
	return paths
}

// setBroken records in rep, the lean report of out's witness, which
// transactions of its cycle the run breaks by itself.
func setBroken(rep *report.Report, out *predict.Outcome) {
	w := out.Result.Witness
	rep.Witness.SetBroken(rep.Naming(), out.Program, w.Run, brokenPaths(w))
}
