package main

import (
	"context"
	"fmt"
	"os"

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
func groupViolations(ctx context.Context, e *env, path string, rep *report.Report) error {
	var lines lineSet
	for _, v := range rep.Violations {
		lines.add(int64(v.Out))
		lines.add(int64(v.In))
		for _, s := range v.Cycle {
			lines.add(int64(s.Line))
		}
	}
	sites, err := readSites(ctx, e, path, &lines)
	if err != nil {
		return err
	}
	report.GroupViolations(rep, sites.event)
	return nil
}

// groupSpool groups the violations the monitor streamed into sp (the text
// and DOT output, which show groups only): it holds the groups, not the
// violations. threads names the monitor's thread ids.
func groupSpool(ctx context.Context, e *env, path string, rep *report.Report, sp *violationSpool, threads *trace.Table) error {
	sites, err := readSites(ctx, e, path, &sp.lines)
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

// readSites reads the trace at path again for the sites of lines (none
// when no line is needed). Standard input, or a pipe (`<(cmd)`), cannot be
// read again; if ctx ends first (--timeout, --max-memory), the lines not
// reached are not read: either way their events are shown by line only,
// and a note on standard error says why (a trace read once is not kept:
// it may be larger than memory or disk).
func readSites(ctx context.Context, e *env, path string, lines *lineSet) (*siteTable, error) {
	if lines.last == 0 {
		return nil, nil
	}
	// Stat, not open, first: opening a pipe whose writer is gone would wait
	// for another forever.
	if st, err := os.Stat(path); path == "-" || err != nil || !st.Mode().IsRegular() {
		fmt.Fprintln(e.stderr, "monitor: a trace on standard input or a pipe is read once: the cycles' events are named by line only, and grouped by the shape of their cycles (give the trace as a file to see their ops, variables and code locations)")
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, cannotRead(err)
	}
	defer f.Close()
	sites, err := resolveSites(ctx, f, path, lines)
	if err != nil && ctx.Err() != nil {
		fmt.Fprintf(e.stderr, "monitor: %v: the cycles' events are shown by line only\n", err)
		err = nil
	}
	return sites, err
}
