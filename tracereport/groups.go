package tracereport

import (
	"context"

	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// The monitor keeps only the lines of the events on its cycles; their ops,
// variables and code locations come from a second reading of the trace, up
// to the last line needed, that parses those lines only (resolveSites,
// trace.LinesAt); they group the violations by signature
// (report.Grouper). A trace read from standard input or a pipe cannot be
// read again: its events are then shown by line only, and grouped by the
// shape of their cycles.

// groupViolations groups rep's violating transactions, all held (the JSON
// and --all list them), by signature (report.GroupViolations).
func groupViolations(ctx context.Context, again secondReading, rep *report.Report) error {
	var lines lineSet
	for _, v := range rep.Violations {
		lines.add(int64(v.Out))
		lines.add(int64(v.In))
		for _, s := range v.Cycle {
			lines.add(int64(s.Line))
		}
	}
	sites, err := again.sites(ctx, &lines)
	if err != nil {
		return err
	}
	report.GroupViolations(rep, sites.event)
	return nil
}

// groupSpool groups the violations the monitor streamed into sp (the text
// and DOT output, which show groups only): it holds the groups, not the
// violations. threads names the monitor's thread ids.
func groupSpool(ctx context.Context, again secondReading, rep *report.Report, sp *violationSpool, threads *trace.Table) error {
	sites, err := again.sites(ctx, &sp.lines)
	if err != nil {
		return err
	}
	g := report.NewGrouper(sites.event)
	sp.each(threads, func(v *report.Violation) { g.Add(v) })
	// The examples' other transactions are violating ones too: a second
	// pass over the spool finds their ends.
	ends := map[int]*int{}
	for _, b := range g.ExampleBegins() {
		ends[b] = nil
	}
	sp.each(threads, func(v *report.Violation) {
		if _, ok := ends[v.Begin]; ok && v.End != nil {
			end := *v.End
			ends[v.Begin] = &end
		}
	})
	rep.Groups = g.Groups(func(begin int) *int { return ends[begin] })
	return nil
}
