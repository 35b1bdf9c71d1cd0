package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/docblocks"
)

// genTraces writes n traces of conc gen random --trace into a fresh
// directory and returns it and their paths.
func genTraces(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for k := range n {
		o := conc("gen", "random", "--trace", "--events", "1500", "--vars", "2", "--seed", string(rune('1'+k)))
		require.Equal(t, 0, o.code, o.stderr)
		p := filepath.Join(dir, "t"+string(rune('a'+k))+".std")
		require.NoError(t, os.WriteFile(p, []byte(o.stdout), 0o644))
		paths = append(paths, p)
	}
	return dir, paths
}

// Several traces from the command line: a directory or its files give
// one report, the exit code the worst verdict's; summaries of two parts,
// merged in either order by conc merge, print that report byte for byte,
// text and JSON, for monitor and predict --all.
func TestCorpusFromTheCommandLine(t *testing.T) {
	dir, paths := genTraces(t, 5)
	for _, cmd := range [][]string{{"monitor"}, {"predict", "--all"}} {
		for _, format := range []string{"text", "json"} {
			args := append(append([]string{}, cmd...), "--format", format)
			whole := conc(append(args, dir, "-j", "2")...)
			require.Equal(t, exitViolation, whole.code, whole.stderr)
			require.Empty(t, whole.stderr)
			files := conc(append(args, paths...)...)
			require.Equal(t, whole, files)
			a, b := filepath.Join(t.TempDir(), "a.json"), filepath.Join(t.TempDir(), "b.json")
			o := conc(append(args, "--summary-out", a, paths[0], paths[3])...)
			require.Equal(t, exitViolation, o.code, o.stderr)
			o = conc(append(args, "--summary-out", b, paths[1], paths[2], paths[4], "-j", "1")...)
			require.Equal(t, exitViolation, o.code, o.stderr)
			require.Equal(t, whole, conc("merge", "--format", format, a, b))
			require.Equal(t, whole, conc("merge", "--format", format, b, a))
		}
	}
	text := conc("monitor", dir).stdout
	require.True(t, strings.HasPrefix(text, "violation\n5 traces: violation "), text)
	require.Contains(t, text, "groups across the traces (grouped by code locations, object ids normalised: docs/corpus.md)\n")
	require.Contains(t, text, "\nmonitor over 5 traces, ")
}

// A trace that cannot be checked is a row of the report and makes the
// exit code 2; the other traces are reported.
func TestCorpusBadTrace(t *testing.T) {
	dir, _ := genTraces(t, 2)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "z.std"), []byte("T1|rd(x)\n"), 0o644))
	o := conc("monitor", dir)
	require.Equal(t, exitUsage, o.code)
	require.True(t, strings.HasPrefix(o.stdout, "error\n3 traces: violation 2, error 1\n"), o.stdout)
	require.Contains(t, o.stdout, "  "+filepath.Join(dir, "z.std")+": error: "+filepath.Join(dir, "z.std")+":1: malformed op")
}

// What several traces cannot do is a usage error, one line.
func TestCorpusUsageErrors(t *testing.T) {
	dir, paths := genTraces(t, 2)
	sum := filepath.Join(t.TempDir(), "s.json")
	require.Equal(t, exitViolation, conc("monitor", dir, "--summary-out", sum).code)
	other := filepath.Join(t.TempDir(), "o.json")
	require.Equal(t, exitViolation, conc("monitor", dir, "--lock-edges", "--summary-out", other).code)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"monitor", dir, "--dot", "x.dot"}, "conc: monitor: --dot, --html and --all show one trace"},
		{[]string{"monitor", dir, "--all"}, "conc: monitor: --dot, --html and --all show one trace"},
		{[]string{"monitor", dir, "--criterion", "view"}, "conc: monitor: --criterion view reads one trace"},
		{[]string{"predict", dir}, "conc: predict: several traces (or --summary-out) are reported with --all"},
		{[]string{"predict", "--all", dir, "--witness-out", "w.std"}, "conc: predict: several traces (or --summary-out) are reported with --all"},
		{[]string{"monitor", dir, "-j", "0"}, `conc: monitor: --j "0": want 1 or more`},
		{[]string{"monitor", paths[0], "-", "-j", "1"}, "conc: monitor: standard input (-) cannot be one of several traces"},
		{[]string{"monitor", "--summary-out", sum}, "conc: monitor: want TRACE arguments"},
		{[]string{"monitor", dir, "--summary-out", paths[0]}, "conc: monitor: --summary-out: "},
		{[]string{"merge"}, "conc: merge: want SUMMARY arguments"},
		{[]string{"merge", paths[0]}, "conc: merge: " + paths[0] + ": not a summary"},
		{[]string{"merge", sum, sum}, "conc: merge: " + sum + ": trace "},
		{[]string{"merge", sum, other}, `conc: merge: ` + other + `: summaries of different runs: "monitor" and "monitor --lock-edges"`},
	} {
		o := conc(c.args...)
		require.Equal(t, exitUsage, o.code, "%v", c.args)
		require.True(t, strings.HasPrefix(o.stderr, c.want), "%v: %q", c.args, o.stderr)
		require.Equal(t, 1, strings.Count(o.stderr, "\n"), "%v: %q", c.args, o.stderr)
	}
}

// TestCorpusDocumented: docs/corpus.md's quoted run over testdata/traces
// is what conc prints, and its conc merge of two summaries prints the one
// run over their three traces.
func TestCorpusDocumented(t *testing.T) {
	t.Chdir("../..")
	md, err := os.ReadFile("docs/corpus.md")
	require.NoError(t, err)
	var shown, merge string
	for _, b := range docblocks.Of(docblocks.Extract(string(md)), "") {
		switch {
		case strings.HasPrefix(b.Text, "$ conc monitor testdata/traces"):
			shown = b.Text
		case strings.HasPrefix(b.Text, "conc monitor --summary-out"):
			merge = b.Text
		}
	}
	cmd, want, _ := strings.Cut(shown, "\n")
	o := conc(strings.Fields(strings.TrimPrefix(cmd, "$ conc "))...)
	require.Equal(t, exitViolation, o.code, o.stderr)
	require.Equal(t, want, o.stdout)

	tmp := t.TempDir()
	var traces []string
	lines := strings.Split(strings.TrimSpace(merge), "\n")
	require.Len(t, lines, 3)
	for _, l := range lines {
		l, _, _ = strings.Cut(l, "#")
		args := strings.Fields(strings.ReplaceAll(l, "/tmp/", tmp+"/"))[1:]
		o = conc(args...)
		if args[0] == "monitor" {
			require.Equal(t, exitViolation, o.code, o.stderr)
			traces = append(traces, args[3:]...)
		}
	}
	require.Len(t, traces, 3)
	require.Equal(t, conc(append([]string{"monitor"}, traces...)...), o)
}
