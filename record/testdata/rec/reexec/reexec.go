// Package reexec's test runs its own test binary again, as tests of
// crashes do: the child must not write over the parent's trace.
package reexec

// N is written by each test binary.
var N int
