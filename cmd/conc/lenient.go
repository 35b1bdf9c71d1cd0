package main

import (
	"fmt"
	"strings"

	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// lenientHelp is --lenient's help, the same for monitor and predict
// (docs/spec.md §3).
const lenientHelp = "skip bad trace lines instead of failing: malformed ones, and events no execution " +
	"could produce (a rel of a lock not held, an end without begin, ...); the count, by kind, " +
	"goes to standard error (JSON: skipped, skipped_kinds)"

// reportSkipped puts what --lenient skipped into rep, for the JSON, and,
// in text output, says it on standard error when anything was skipped:
// --lenient promises to skip bad lines and count them (docs/spec.md §3),
// and a verdict over a trace with lines left out must say so. Without
// --lenient nothing changes.
func reportSkipped(e *env, lenient bool, format string, rep *report.Report, st trace.Stats) {
	if !lenient {
		return
	}
	n := st.SkippedLines()
	rep.Skipped = &n
	if n == 0 {
		return
	}
	rep.SkippedKinds = map[string]int64{}
	var kinds []string
	for k := range trace.NumSkips {
		if c := st.Skipped[k]; c > 0 {
			rep.SkippedKinds[k.String()] = c
			kinds = append(kinds, fmt.Sprintf("%d %s", c, k.Words()))
		}
	}
	if format == "text" {
		lines := "lines"
		if n == 1 {
			lines = "line"
		}
		fmt.Fprintf(e.stderr, "conc: --lenient skipped %d %s (first at line %d): %s\n",
			n, lines, st.FirstSkipped, strings.Join(kinds, ", "))
	}
}
