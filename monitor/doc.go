// Package monitor is the trace monitor of `conc monitor` (docs/spec.md §3):
// it reads a trace (package trace) once and reports every transaction
// that closes a cycle of the conflict graph of the trace as it was
// observed, keeping only the transactions that may still lie on one
// (docs/traces.md). The monitors of .conc programs' runs are its siblings,
// monitor/graph (the exact conflict graph) and monitor/fsm (the
// finite-state monitor); neither depends on the trace reader.
package monitor
