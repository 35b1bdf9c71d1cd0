package tracereport

import (
	"context"
	"strconv"

	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// blameReport turns rep, the conflict-graph monitor's answer with its
// first cycle only, into the default answer: the broken transactions
// grouped, the joint violation (that first cycle) when none is broken,
// and the count of transactions on a cycle.
func blameReport(ctx context.Context, again secondReading, r *trace.Reader, rep *report.Report, s *blameSpool, first []monitor.TraceViolation, stopped string) error {
	if stopped == "" {
		s.set(r, rep)
	}
	rep.NonAtomicUnknown = stopped
	rep.TraceLines = int(r.Stats().Lines)
	rep.OnCycle, rep.Violating = rep.Violating, nil
	if stopped == "" && *rep.NonAtomic == 0 && len(rep.Violations) > 0 {
		if err := groupViolations(ctx, again, rep); err != nil {
			return err
		}
		rep.Joint = rep.Groups
		if len(first) > 0 {
			jointEnds(r, rep.Joint, &first[0])
		}
	}
	rep.Violations, rep.Groups = nil, nil
	return nil
}

// jointEnds gives the joint violation's transactions their ends, which
// the monitor kept for its first cycle (v.Ends): the grouping knows only
// those of the violations it was given, and the default answer keeps one.
func jointEnds(r *trace.Reader, joint []report.Group, v *monitor.TraceViolation) {
	ends := map[string]int{}
	key := func(thread string, begin int) string { return thread + "|" + strconv.Itoa(begin) }
	for i, c := range v.Cycle {
		if i < len(v.Ends) && v.Ends[i] >= 0 {
			ends[key(r.Threads().Name(c.Thread), int(c.Begin))] = int(v.Ends[i])
		}
	}
	for _, g := range joint {
		for i := range g.Cycle {
			t := &g.Cycle[i]
			if end, ok := ends[key(t.Thread, t.Begin)]; ok && t.End == nil {
				t.End = &end
			}
		}
	}
}
