package report

import (
	"iter"

	"github.com/conc-dev/conc/engines"
)

// TraceAnswer is the trace monitor's answer (conc monitor) in report's own
// terms: report reads no trace and knows no monitor (docs/design.md, "What
// may import what"), so the driver converts the monitor's result into it.
// Threads are ids into Names; lines are the trace's.
type TraceAnswer struct {
	Verdict engines.Verdict
	// Threads, Vars and Locks count the trace's names.
	Threads, Vars, Locks int
	// Names names the thread ids of the cycles.
	Names []string
	// First is the line after which the trace is not serializable (0: none).
	First int64
	// Count counts the violating transactions; Cycles may yield fewer.
	Count int64
	Stats engines.Stats
	// Len is how many cycles Cycles yields (the capacity reserved for them).
	Len    int
	Cycles iter.Seq[TraceCycle]
}

// TraceCycle is a transaction of the trace on a conflict cycle, with one
// such cycle: the monitor's violation. End is -1 while the transaction is
// open; Out and In are the lines of its own events where the cycle leaves
// it and comes back; Steps are the other transactions' events on the
// cycle, in cycle order (BuildTrace copies them: the driver may reuse the
// slice). Elided transactions are left out just before Steps[ElidedAt].
type TraceCycle struct {
	Thread           int32
	Begin, End       int64
	Out, In          int64
	Steps            []CycleStep
	Elided, ElidedAt int
}

// CycleStep is one event of a cycle: its thread, its line and the begin
// line of its transaction.
type CycleStep struct {
	Thread      int32
	Line, Begin int64
}

// BuildTrace resolves a trace monitor's answer to names (docs/spec.md §5): a
// trace is a straight-line program, one thread per trace thread.
func BuildTrace(a TraceAnswer) *Report {
	count := a.Count
	rep := &Report{
		Verdict:   a.Verdict.String(),
		Engine:    "monitor",
		Class:     "straight-line",
		Threads:   a.Threads,
		Vars:      a.Vars,
		Locks:     a.Locks,
		First:     int(a.First),
		Violating: &count,
		Stats:     a.Stats,
		naming:    NamingOf(a.Names),
	}
	switch {
	case a.Verdict == engines.Unknown:
		rep.Reason = "timeout: the trace was not read to its end (--timeout)"
	case rep.Threads == 0:
		rep.Reason = EmptyTraceNote // an empty trace, or all of it skipped
	}
	rep.Violations = traceViolations(a)
	return rep
}

// traceViolations converts a's cycles. A trace can have a million
// violations: their ends share one array.
func traceViolations(a TraceAnswer) []Violation {
	vs := make([]Violation, 0, a.Len)
	ends := make([]int, 0, a.Len)
	if a.Cycles == nil {
		return vs
	}
	for c := range a.Cycles {
		v := Violation{Thread: a.Names[c.Thread], Begin: int(c.Begin), Out: int(c.Out), In: int(c.In),
			Cycle: make([]TraceStep, 0, len(c.Steps)), Elided: c.Elided, ElidedAt: c.ElidedAt}
		if c.End >= 0 && len(ends) < cap(ends) {
			ends = append(ends, int(c.End))
			v.End = &ends[len(ends)-1]
		} else if c.End >= 0 {
			end := int(c.End)
			v.End = &end
		}
		for _, s := range c.Steps {
			v.Cycle = append(v.Cycle, TraceStep{Thread: a.Names[s.Thread], Line: int(s.Line), Begin: int(s.Begin)})
		}
		vs = append(vs, v)
	}
	return vs
}
