package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestProgress: --progress prints the bytes read, the rate and the time on
// standard error and leaves the answer alone; by default it is off when
// standard error is not a terminal (here, a buffer).
func TestProgress(t *testing.T) {
	path := file(t, "t.std", "0|begin\n0|r(x)\n1|w(x)\n0|w(x)\n0|end\n")
	for _, cmd := range []string{"monitor", "predict"} {
		o := conc(cmd, path, "--progress", "--quiet")
		require.Equal(t, exitViolation, o.code, o.stderr)
		require.Contains(t, o.stderr, "conc: read 0.0 MB of 0.0 MB (100%)")
		require.Contains(t, o.stdout, "violation")

		o = conc(cmd, path, "--quiet")
		require.Equal(t, exitViolation, o.code, o.stderr)
		require.NotContains(t, o.stderr, "conc: read")

		o = conc(cmd, path, "--progress=false", "--quiet")
		require.NotContains(t, o.stderr, "conc: read")
	}
}
