package main

import (
	"io"

	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/tracereport"
)

// lenientHelp is --lenient's help, the same for monitor and predict
// (docs/spec.md §3).
const lenientHelp = "skip bad trace lines instead of failing: malformed ones, and events no execution " +
	"could produce (a rel of a lock not held, an end without begin, ...); the count, by kind, " +
	"goes to standard error (JSON: skipped, skipped_kinds)"

// reportSkipped puts what --lenient skipped into rep (tracereport.Skipped),
// saying it on standard error in text output. Without --lenient nothing
// changes.
func reportSkipped(e *env, lenient bool, format string, rep *report.Report, st trace.Stats) {
	if !lenient {
		return
	}
	var notes io.Writer
	if format == "text" {
		notes = e.stderr
	}
	tracereport.Skipped(rep, st, notes)
}
