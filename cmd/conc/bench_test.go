package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/bench"
	"github.com/conc-dev/conc/gen"
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
	require.Contains(t, string(svg), ">global: ")
	require.Contains(t, string(svg), ">locked: global<", "the default title: the family and engines")
	require.Contains(t, string(svg), ">n = critical sections per thread<", "the x axis says what n counts")
	require.Contains(t, string(svg), ">states; time in µs, dotted<", "the default metric: the engine's counted work, times beside it")
	require.Contains(t, string(svg), ">global time: ")
}

// TestBenchMarkdown: --markdown prints the command and the machine, the
// points as a Markdown table (which reads back as the points the plot was
// drawn from) and the fits.
func TestBenchMarkdown(t *testing.T) {
	o := conc("bench", "--family", "locked", "--engines", "global", "--sizes", "1,2,3", "--threads", "2", "--metric", "states", "--markdown")
	require.Equal(t, 0, o.code, o.stderr)
	require.Regexp(t, "^Made by `conc bench --family locked --engines global --sizes 1,2,3 --threads 2 --metric states --markdown` on .+, \\d+ cores, go\\S+ \\w+/\\w+, \\d{4}-\\d\\d-\\d\\d\\.\n\n", o.stdout)
	require.Regexp(t, `(?m)^\| global \| 3 \| 2 \| 2 \| serializable \| \d+ \| `, o.stdout)
	require.Regexp(t, "(?m)^global   states ~ n\\^", o.stdout)
	pts, err := bench.ParseTable(o.stdout)
	require.NoError(t, err)
	require.Len(t, pts, 3)
	require.Equal(t, "serializable", pts[2].Verdict)
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
		{[]string{"--family", "np", "--threads", "2"}, "conc: bench: --threads does not apply to np (it has no thread count)\n"},
		{[]string{"--family", "chain", "--threads", "3,1"}, "conc: bench: --threads 1: chain wants 2 or more\n"},
		{[]string{"--timeout", "0s"}, `conc: bench: --timeout "0s": want a positive duration, e.g. 30s`},
		{[]string{"--timeout", "5"}, `conc: bench: --timeout "5": a duration needs a unit, e.g. 5s or 2m; run 'conc bench --help'`},
		{[]string{"--timeout", "5x"}, `conc: bench: --timeout "5x": want a duration such as 30s`},
		{[]string{"--repeat", "0"}, "conc: bench: --repeat \"0\": want 1 or more; run 'conc bench --help'\n"},
		{[]string{"--max-depth", "-1"}, "conc: bench: --max-depth \"-1\": want 0"},
		{[]string{"--family", "random", "--threads", "1000", "--sizes", "1000000"}, "over the cap of 64 MiB"},
	} {
		o := conc(append([]string{"bench"}, tc.args...)...)
		require.Equal(t, exitUsage, o.code, "%v", tc.args)
		require.Contains(t, o.stderr, tc.msg, "%v", tc.args)
		require.True(t, strings.HasPrefix(o.stderr, "conc: "), o.stderr)
	}
}

// TestBenchFamiliesDocumented: conc bench --help lists the families
// --family takes, and it takes exactly those: each listed one sweeps, and
// a gen family's name that is not listed (none today) or a made-up one is
// refused.
func TestBenchFamiliesDocumented(t *testing.T) {
	h := conc("bench", "--help")
	require.Equal(t, 0, h.code)
	_, list, ok := strings.Cut(h.stdout, "\nFamilies (--family):\n")
	require.True(t, ok, h.stdout)
	var listed []string
	for _, l := range strings.Split(strings.TrimSpace(list), "\n") {
		listed = append(listed, strings.Fields(l)[0])
	}
	require.NotEmpty(t, listed)
	for _, f := range listed {
		engine := "global"
		if f == "view-np" {
			engine = "view" // a trace family: its engines are conc monitor's criteria
		}
		o := conc("bench", "--family", f, "--sizes", "1", "--engines", engine, "--timeout", "5s")
		require.Equal(t, 0, o.code, "%s: %s", f, o.stderr)
		require.Contains(t, o.stdout, "family "+f+": n = ")
	}
	for _, f := range append(gen.Families(), "chain2") {
		if !slices.Contains(listed, f) {
			o := conc("bench", "--family", f)
			require.Equal(t, exitUsage, o.code, f)
			require.Contains(t, o.stderr, "cannot be swept")
		}
	}
}

// TestBenchPlotNothingToDraw: a sweep whose every decision timed out
// prints its table, exits 0, and writes a plot that says why it is empty.
func TestBenchPlotNothingToDraw(t *testing.T) {
	plot := filepath.Join(t.TempDir(), "cut.svg")
	o := conc("bench", "--family", "chain", "--engines", "global,profile", "--sizes", "3000", "--timeout", "1ns", "--plot", plot)
	require.Equal(t, 0, o.code, o.stderr)
	require.Regexp(t, `(?m)^ +global +3000 +3 +3 +timeout `, o.stdout)
	require.Regexp(t, `(?m)^ +profile +3000 +3 +3 +timeout `, o.stdout)
	require.Contains(t, o.stdout, "wrote "+plot)
	svg, err := os.ReadFile(plot)
	require.NoError(t, err)
	require.Contains(t, string(svg), ">nothing to plot: no decision finished<")
	require.Contains(t, string(svg), ">(2 timed out; see the table)<")
}
