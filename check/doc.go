// Package check is conc check's pipeline for a .conc program (docs/spec.md
// §4, §6): compile it under the run's limits, choose the engine
// (engines.Auto, or the one asked for), run it under its deadline and
// memory budget, let the witness gate (package verify) replay a
// violation's witness, and build the report. The command line (cmd/conc)
// and the playground (conc serve) both answer through it, so the
// playground's JSON is conc check's.
package check
