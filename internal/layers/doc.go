// Package layers holds the test that keeps the import rules of
// docs/design.md ("Packages"): it reads the import clauses of every
// non-test file of the module and fails on an edge the rules forbid, so
// the layering cannot regress silently. It has no code of its own.
package layers
