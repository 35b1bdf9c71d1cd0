package all

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/internal/batch"
)

// A witness run as a schedule of the trace (docs/predict.md, "Every group
// (--all)", and docs/spec.md §5; internal/batch/schedule.go says why it
// is exact): conc predict --all's JSON gives every group's run this way,
// since the runs spelled out are gigabytes on a large trace.

// Schedule is a witness run as parts of the trace: Cut, the trace's
// events of each listed thread up to its line, in trace order, then each
// of Segments, its thread's events between two lines.
type Schedule = batch.Schedule

// ScheduleCut is a thread's part of the schedule's observed prefix: its
// events up to line Through.
type ScheduleCut = batch.ScheduleCut

// ScheduleSegment is thread Thread's events from line From to line To.
type ScheduleSegment = batch.ScheduleSegment

// ScheduleOf is the schedule of a witness run over the projection program
// p (predict's: its events carry their trace lines), as predict.WriteSTD writes
// the run (without its unary wrappers).
func ScheduleOf(p *model.Program, w *model.Witness) Schedule {
	return batch.ScheduleOf(p, w, predict.UnaryWrappers(w, len(p.Threads)))
}
