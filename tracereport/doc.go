// Package tracereport makes the report of conc monitor's answer for a
// trace (docs/spec.md §3): it runs the pass of the trace monitor (pass.Check)
// over one reading of the trace, collects what it streams (the broken
// transactions by signature, or the violations in a compact spool, or all
// of them when the output lists them), converts the answer into report's
// terms (report.BuildTrace), and groups the cycles by signature from a
// second reading of the trace that parses only the lines they name.
//
// It stands between monitor and report: report reads no trace and knows
// no monitor (docs/design.md, "What may import what"), and the command
// only parses flags, calls Monitor and renders what it returns.
package tracereport
