// Package gen writes .conc programs: seeded random programs for differential
// tests of the engines, and the scaling and reduction families of conc gen
// (docs/complexity.md): chain (a cycle through all k threads), locked (the
// n^k product of Theorem 4), deep (a violation at call depth d), np (3-SAT,
// Theorem 2's hardness) and w1 (DFA intersection, Theorem 6's).
//
// Each family says which sizes and switches it reads, with their ranges
// (Reads), and estimates its text before drawing it (Bytes), so that conc
// gen rejects a size out of range instead of rounding it, and refuses an
// instance over MaxBytes instead of growing until the machine kills it.
//
// Generators write text, not models, so that a failing case prints as a
// program a person can read and run with conc check. Every family lives in a
// file of its own and registers a Family; Random covers the paper's three
// classes of programs (Section 2: straight-line, regular, recursive) with or
// without locks, under switches that add one construct each. The tests'
// shrinker (testkit/shrink) deletes statements from a failing program while
// the failure persists, so a cross-check prints a minimal counterexample.
//
// Generated programs always compile: locks are taken only through
// well-nested sync blocks or acquire/release pairs in one block, a held lock
// is never taken again, procedures are called only where no lock is held, and
// every block leaves the held locks and the transaction status as it found
// them (docs/spec.md §2's path-independence rule).
package gen
