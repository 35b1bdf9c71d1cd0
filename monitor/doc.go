// Package monitor is the conflict graph of `conc monitor` (docs/spec.md
// §3): stepped through a trace's events (package trace) in order, it
// reports every transaction that closes a cycle of the conflict graph of
// the trace as it was observed, keeping only the transactions that may
// still lie on one (docs/traces.md). The one pass over a trace file that
// runs it beside the atomicity tracker is monitor/pass. The monitors of
// .conc programs' runs are its siblings, monitor/graph (the exact
// conflict graph) and monitor/fsm (the finite-state monitor); neither
// depends on the trace reader.
package monitor
