package main

import (
	"math/bits"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// groupViolations groups rep's violating transactions by signature
// (report.GroupViolations). The monitor keeps only the lines of the events
// on its cycles; their ops, variables and code locations come from a
// second reading of the trace, up to the last line needed. A trace read
// from standard input cannot be read again: its events are then shown by
// line only, and grouped by the shape of their cycles.
func groupViolations(e *env, path string, opts trace.Options, rep *report.Report) error {
	var got map[int64]trace.Event // the events by line, kept small: names are looked up as needed
	var r *trace.Reader
	if path != "-" && len(rep.Violations) > 0 {
		var done func()
		var err error
		if r, done, err = openTrace(e, path, opts, false); err != nil {
			return err
		}
		defer done()
		if got, err = monitor.EventsAt(r, cycleLines(rep.Violations)); err != nil {
			return err
		}
	}
	report.GroupViolations(rep, func(line int) (report.TraceEvent, bool) {
		ev, ok := got[int64(line)]
		if !ok {
			return report.TraceEvent{}, false
		}
		return traceEvent(r, ev), true
	})
	return nil
}

// cycleLines are the lines of every event the violations' cycles name,
// sorted, each once: marked in a bitset first, for a million violations
// name the same lines many times over.
func cycleLines(vs []report.Violation) []int64 {
	var seen []uint64
	mark := func(line int) {
		for line>>6 >= len(seen) {
			seen = append(seen, 0)
		}
		seen[line>>6] |= 1 << (line & 63)
	}
	for _, v := range vs {
		mark(v.Out)
		mark(v.In)
		for _, s := range v.Cycle {
			mark(s.Line)
		}
	}
	var lines []int64
	for w, word := range seen {
		for ; word != 0; word &= word - 1 {
			lines = append(lines, int64(w<<6+bits.TrailingZeros64(word)))
		}
	}
	return lines
}

// traceEvent names ev by r's tables.
func traceEvent(r *trace.Reader, ev trace.Event) report.TraceEvent {
	target, loc := "", ""
	switch {
	case ev.Op.IsAccess():
		target = r.Vars().Name(ev.Target)
	case ev.Op == model.OpAcquire || ev.Op == model.OpRelease:
		target = r.Locks().Name(ev.Target)
	case ev.Op == model.OpFork || ev.Op == model.OpJoin:
		target = r.Threads().Name(ev.Target)
	}
	if ev.Loc >= 0 {
		loc = r.Locs().Name(ev.Loc)
	}
	return report.NewTraceEvent(int(ev.Line), r.Threads().Name(ev.Thread), ev.Op, trace.OpName[ev.Op], target, loc)
}
