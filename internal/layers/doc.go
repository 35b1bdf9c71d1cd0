// Package layers holds the test that keeps the import rules of
// docs/design.md ("Packages"): it reads the import clauses of every file of
// the module and fails on an edge the rules forbid, so the layering cannot
// regress silently. The rules are on non-test files, save the base floor
// (internal/*), which test files keep too. It has no code of its own.
package layers
