// Package testflag sizes the long randomized cross-checks of conc's tests.
//
// Plain `go test ./...` is the quick suite: every check runs, the
// randomized ones on fewer seeds of the same seeded generators, so the
// whole suite takes about 3.5 minutes on two cores (cmd/conc's tests,
// run alone, about one). With CONC_LONG=1
// in the environment (as .ci/run sets it) every check runs at full size.
package testflag

import "os"

// Env is the environment variable that selects the full suite.
const Env = "CONC_LONG"

// Long reports whether the full suite was asked for: CONC_LONG set to
// anything but "" or "0".
func Long() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// N is a randomized check's size: long in the full suite, quick otherwise.
// Tests loop over seeds 0..N-1 (or a fixed stream), so the quick suite runs
// a prefix of the full suite's cases.
func N(quick, long int) int {
	if Long() {
		return long
	}
	return quick
}
