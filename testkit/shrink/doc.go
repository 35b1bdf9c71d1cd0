// Package shrink is the tests' counterexample shrinker: Program deletes
// statements, declarations and threads from a failing .conc program while
// the failure persists, so that a differential test prints a small program a
// person can read. Only tests import it (the engines' differential tests):
// it reads back the one-statement-a-line layout gen prints, and
// lang.Compile, which it calls on every candidate, remains the judge of
// what a program is.
package shrink
