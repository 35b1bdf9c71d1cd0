package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBenchTableAndPlot runs a tiny sweep: the table has a row per engine
// and size, the fits are printed, and the plot is an SVG.
func TestBenchTableAndPlot(t *testing.T) {
	plot := filepath.Join(t.TempDir(), "locked.svg")
	o := conc("bench", "--family", "locked", "--engines", "global", "--sizes", "1,2,3", "--threads", "2", "--plot", plot)
	require.Equal(t, 0, o.code, o.stderr)
	require.Contains(t, o.stdout, "family locked: n = critical sections per thread")
	require.Regexp(t, `(?m)^ +global +3 +2 +2 +serializable +\d+ `, o.stdout)
	require.Contains(t, o.stdout, "fitted growth")
	require.Regexp(t, `global +states ~ n\^\d\.\d\d  \(k=2, 3 points`, o.stdout)
	svg, err := os.ReadFile(plot)
	require.NoError(t, err)
	require.Contains(t, string(svg), "<svg")
	require.Contains(t, string(svg), ">global<")
}

// TestBenchSkipsUnsupported: the profile engine cannot decide programs
// with locks; the table says so instead of failing.
func TestBenchSkipsUnsupported(t *testing.T) {
	o := conc("bench", "--family", "locked", "--engines", "profile,global", "--sizes", "1")
	require.Equal(t, 0, o.code, o.stderr)
	require.Regexp(t, `profile +1 +2 +2 +skipped .*unsupported`, o.stdout)
	require.NotContains(t, o.stdout, "fitted growth") // one size: nothing to fit
}

func TestBenchUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--family", "nope"}, "cannot be swept"},
		{[]string{"--engines", "nope"}, "unknown engine"},
		{[]string{"--engines", ","}, "at least one engine"},
		{[]string{"--sizes", "1,x"}, `--sizes: "x"`},
		{[]string{"--threads", "0"}, "--threads"},
		{[]string{"--metric", "joules"}, "--metric"},
		{[]string{"--plot", "out.pdf", "--sizes", "1"}, ".svg or .png"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		o := conc(append([]string{"bench"}, tc.args...)...)
		require.Equal(t, exitUsage, o.code, "%v", tc.args)
		require.Contains(t, o.stderr, tc.msg, "%v", tc.args)
		require.True(t, strings.HasPrefix(o.stderr, "conc: "), o.stderr)
	}
}
