// Package expect reads the expectations that conc's inputs carry inside
// them, and judges an engine's answer against them.
//
// An expectation is a line comment of the form
//
//	// want VERDICT [FLAG...]
//
// where VERDICT is violation, serializable or unknown and the flags are the
// command-line flags of conc check that change the question (docs/spec.md §4):
// --lock-edges, --ignore-sync, --max-depth N, --max-stack N, --max-states N.
// A file may carry several expectations, one per set of flags; the flags
// select the conflict relation (the paper's D, with or without docs/spec.md §1's
// lock edges) and the model (with or without synchronisation). A comment
// that starts with "want" but not with a verdict is prose and is ignored.
//
// The verdict of a want line is the answer of a decision procedure. An
// engine that can only bound its search may answer unknown where the
// program's runs are unbounded and the wanted verdict is serializable; Judge
// encodes that rule once for every harness. Only test files import it (the
// examples' and cmd/conc's).
package expect
