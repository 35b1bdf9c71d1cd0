package batch

import (
	"github.com/conc-dev/conc/model"
)

// A witness run as a schedule of the trace (docs/predict.md, "Every group
// (--all)", and docs/spec.md §5): conc predict --all's JSON gives every
// group's run this way, since the runs spelled out are gigabytes on a
// large trace (mostly a context run in its observed order). The schedule
// stands for the run as --witness-out writes it (WriteSTD: the unary
// wrappers and a begin that ends its thread's part left out), event by
// event:
//
//   - Cut: the trace's events, in trace order, of each listed thread up
//     to and including its line (the other threads: none);
//   - then each segment in order: the trace's events of its thread whose
//     lines lie from From to To (inclusive), in trace order.
//
// Under --ignore-sync the run has no lock, fork or join event, and the
// schedule's parts leave them out too.
//
// It is exact because a run takes each thread's events as a prefix of the
// thread's projection, in order: the run's longest prefix whose trace
// lines increase is then, thread by thread, every event of the thread up
// to its last line there, in trace order (the cut); after it, a block of
// one thread's consecutive run events is every event of that thread
// between the block's first line and its last (a segment).

// Schedule is a witness run as parts of the trace.
type Schedule struct {
	Cut      []ScheduleCut
	Segments []ScheduleSegment
}

// ScheduleCut is a thread's part of the schedule's observed prefix: its
// events up to line Through.
type ScheduleCut struct {
	Thread  string
	Through int64
}

// ScheduleSegment is thread Thread's events from line From to line To.
type ScheduleSegment struct {
	Thread   string
	From, To int64
}

// ScheduleOf is the schedule of a witness run over the projection program
// p (predict's: its events carry their trace lines), without the run
// events drop marks (those the written witness leaves out).
func ScheduleOf(p *model.Program, w *model.Witness, drop []bool) Schedule {
	var sch Schedule
	through := make([]int64, len(p.Threads)) // the cut's line per thread, 0: none
	last, prefix := int64(0), true
	for i, st := range w.Run {
		if drop[i] {
			continue
		}
		t, line := int(st.Thread), int64(st.Ev.Pos.Line)
		if prefix && line > last {
			through[t], last = line, line
			continue
		}
		prefix = false
		n := len(sch.Segments)
		if n > 0 && sch.Segments[n-1].Thread == p.Threads[t].Name {
			sch.Segments[n-1].To = line
			continue
		}
		sch.Segments = append(sch.Segments, ScheduleSegment{Thread: p.Threads[t].Name, From: line, To: line})
	}
	for t, l := range through {
		if l > 0 {
			sch.Cut = append(sch.Cut, ScheduleCut{Thread: p.Threads[t].Name, Through: l})
		}
	}
	return sch
}
