package tracereport

import (
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/monitor/pass"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// verdictOf: a violation found is final even if the check stopped early;
// otherwise an early stop leaves the answer unknown.
func verdictOf(res pass.Result) engines.Verdict {
	switch {
	case res.Violation:
		return engines.Violation
	case res.Stopped != "":
		return engines.Unknown
	}
	return engines.Serializable
}

// answerOf is the monitor's answer in report's terms (report.BuildTrace
// makes the report). Each monitor violation is let go once yielded, and its
// cycle's steps go through one reused slice: a trace can have a million.
func answerOf(r *trace.Reader, res pass.Result) report.TraceAnswer {
	return report.TraceAnswer{
		Verdict: verdictOf(res),
		Threads: r.Threads().Len(),
		Vars:    r.Vars().Len(),
		Locks:   r.Locks().Len(),
		Names:   res.Threads,
		First:   res.First,
		Count:   res.Count,
		Stats:   engines.Stats{States: res.Stats.MaxLive, Events: res.Stats.Events, Millis: res.Stats.Millis},
		Len:     len(res.Violations),
		Cycles: func(yield func(report.TraceCycle) bool) {
			var steps []report.CycleStep
			for i, v := range res.Violations {
				res.Violations[i] = monitor.TraceViolation{}
				steps = steps[:0]
				for _, s := range v.Cycle {
					steps = append(steps, report.CycleStep{Thread: s.Thread, Line: s.Line, Begin: s.Begin})
				}
				c := report.TraceCycle{Thread: v.Thread, Begin: v.Begin, End: v.End, Out: v.Out, In: v.In,
					Steps: steps, Elided: v.Elided, ElidedAt: v.ElidedAt}
				if !yield(c) {
					return
				}
			}
		},
	}
}
