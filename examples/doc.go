// Package examples is a catalogue of commented .conc models, one concept
// each, from the paper's Figure 1 (Farzan and Madhusudan 2009) to recursive
// threads with locks. Each file opens with a comment saying what it shows
// and why its verdict holds, derived by hand from the conflict-graph
// characterization (Lemma 1: a run is serializable iff its conflict graph
// is acyclic), and carries its expected verdicts as want lines (package
// testkit/expect):
//
//	// want violation
//	// want serializable --lock-edges
//
// The package has no code; its test compiles every example and checks every
// want line against every registered engine that supports the program.
package examples
