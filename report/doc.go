// Package report renders an engine's answer for a model.Program: the verdict,
// the witness run (a run of the program that is not conflict-serializable,
// Farzan and Madhusudan's Section 2) and the cycle of its conflict graph, as
// text, as the JSON object of docs/spec.md §5, and as a Graphviz digraph.
//
// Rendering is two steps. Build resolves an engines.Result against its program
// into a Report: thread, variable and lock names, source positions as strings,
// the transaction of every run event and every cycle conflict in words. The
// renderers (WriteText, WriteJSON, WriteDOT) only print a Report. For a
// trace, BuildTrace makes the Report from the trace monitor's answer (its
// first failing line and the violating transactions) given in report's own
// types (TraceAnswer): report reads no trace and imports no monitor, so the
// driver converts; GroupViolations then sorts the violations by signature.
// BuildLean is Build for long witnesses: the Report keeps the engine's run
// and the program's names instead of spelled-out events, and the renderers
// spell each event as they write it (into reused buffers; the JSON encoding
// of the run is streamed, byte for byte as encoding/json writes it), so a
// run of millions of events costs no more than the engine's own copy.
//
// Output is deterministic: nothing here reads the clock; the time printed is
// the Stats.Millis the caller put in the Result.
package report
