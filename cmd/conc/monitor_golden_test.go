package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var updateGolden = flag.Bool("update", false, "rewrite cmd/conc's golden files in testdata")

// golden compares got with the file testdata/NAME, or rewrites it under
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateGolden {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "go test ./cmd/conc -run %s -update writes it", t.Name())
	require.Equal(t, string(want), got)
}

// traceExcerpt is a real-trace excerpt of testdata/traces: its file and
// its name (the file without .std or .std.gz).
type traceExcerpt struct{ file, name string }

// traceExcerpts lists the excerpts in dir, which must hold the six Java
// Grande ones (jgf-*).
func traceExcerpts(t *testing.T, dir string) []traceExcerpt {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []traceExcerpt
	jgf := 0
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".std")
		if !ok {
			name, ok = strings.CutSuffix(e.Name(), ".std.gz")
		}
		if !ok {
			continue
		}
		if strings.HasPrefix(name, "jgf-") {
			jgf++
		}
		out = append(out, traceExcerpt{e.Name(), name})
	}
	require.Equal(t, 6, jgf, "the six Java Grande excerpts")
	return out
}

// The text conc monitor --cycles --lock-edges prints for each real-trace
// excerpt (testdata/traces), kept as golden files, and the JSON and DOT for
// sor's. The text streams the violations into groups (groupSpool); --all
// holds them all (groupViolations) and must print the same groups; a trace
// read from standard input names its events by line only.
func TestMonitorGoldenExcerpts(t *testing.T) {
	dir := "../../testdata/traces"
	for _, x := range traceExcerpts(t, dir) {
		path := filepath.Join(dir, x.file)
		out := conc("monitor", path, "--cycles", "--lock-edges", "--quiet")
		require.Empty(t, out.stderr)
		golden(t, filepath.Join("monitor", x.name+".txt"), out.stdout)
		held := conc("monitor", path, "--cycles", "--lock-edges", "--quiet", "--all")
		want, _, _ := strings.Cut(held.stdout, "violating transactions:\n")
		require.Equal(t, want, out.stdout, x.name)
	}

	sor := filepath.Join(dir, "jgf-sor-reduced.std")
	dot := filepath.Join(t.TempDir(), "sor.dot")
	out := conc("monitor", sor, "--cycles", "--lock-edges", "--format", "json", "--dot", dot)
	require.Equal(t, exitViolation, out.code, out.stderr)
	golden(t, "monitor/jgf-sor-reduced.json", scrubMillis(out.stdout))
	g, err := os.ReadFile(dot)
	require.NoError(t, err)
	golden(t, "monitor/jgf-sor-reduced.dot", string(g))

	src, err := os.ReadFile(sor)
	require.NoError(t, err)
	out = concStdin(string(src), "monitor", "-", "--cycles", "--lock-edges", "--quiet")
	golden(t, "monitor/jgf-sor-reduced.stdin.txt", out.stdout)
	require.Contains(t, out.stderr, "a trace on standard input or a pipe is read once: the cycles' events are named by line only")
}

// The default answer (the transactions broken by themselves) that conc
// monitor --lock-edges prints for each real-trace excerpt, kept as golden
// files beside --cycles' (NAME.broken.txt), and the JSON and DOT for
// sor's. --all prints the same, then lists every broken transaction; a trace read
// from standard input gives the same answer, as the broken transactions'
// paths are named as the trace streams by.
func TestMonitorGoldenBroken(t *testing.T) {
	dir := "../../testdata/traces"
	for _, x := range traceExcerpts(t, dir) {
		path := filepath.Join(dir, x.file)
		out := conc("monitor", path, "--lock-edges", "--quiet")
		require.Empty(t, out.stderr)
		golden(t, filepath.Join("monitor", x.name+".broken.txt"), out.stdout)
		held := conc("monitor", path, "--lock-edges", "--quiet", "--all")
		want, list, _ := strings.Cut(held.stdout, "broken transactions:\n")
		require.Equal(t, want, out.stdout, x.name)
		require.Equal(t, strings.Count(list, "\n"), brokenCount(out.stdout), "%s: --all lists every broken transaction", x.name)
	}

	sor := filepath.Join(dir, "jgf-sor-reduced.std")
	dot := filepath.Join(t.TempDir(), "sor.dot")
	out := conc("monitor", sor, "--lock-edges", "--format", "json", "--dot", dot)
	require.Equal(t, exitViolation, out.code, out.stderr)
	golden(t, "monitor/jgf-sor-reduced.broken.json", scrubMillis(out.stdout))
	g, err := os.ReadFile(dot)
	require.NoError(t, err)
	golden(t, "monitor/jgf-sor-reduced.broken.dot", string(g))

	src, err := os.ReadFile(sor)
	require.NoError(t, err)
	fromFile := conc("monitor", sor, "--lock-edges", "--quiet")
	out = concStdin(string(src), "monitor", "-", "--lock-edges", "--quiet")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Equal(t, fromFile.stdout, out.stdout)
}

// brokenCountRe is the default text's count of broken transactions.
var brokenCountRe = regexp.MustCompile(`(?m)^(\d+) transactions? broken by (itself|themselves), in `)

// brokenCount is the number of broken transactions a default text
// answer counts (0 when it counts none).
func brokenCount(text string) int {
	m := brokenCountRe.FindStringSubmatch(text)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// scrubMillis zeroes the JSON's timing, the one field that varies.
func scrubMillis(s string) string {
	i := strings.Index(s, `"millis": `)
	if i < 0 {
		return s
	}
	j := i + len(`"millis": `)
	k := j
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	return s[:j] + "0" + s[k:]
}
