package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// lostUpdateOf is the lost update with threads a and b: a's
// transaction reads x, b writes it, a writes it.
func lostUpdateOf(a, b string) string {
	return strings.NewReplacer("A", a, "B", b).Replace(
		"A|begin|a.java:1\nA|r(x)|a.java:2\nB|w(x)|b.java:7\nA|w(x)|a.java:3\nA|end|a.java:4\n")
}

// laneName is a thread's lane in an HTML timeline.
var laneName = regexp.MustCompile(`class="lane-name"[^>]*>([^<]*)<`)

// TestThreadNamesInProse: every renderer of monitor and predict (text,
// DOT, HTML) names a trace's threads alike, and distinctly: threads 1 and
// T1 read 1 and T1 (both read T1 before docs/spec.md §5's rule), threads
// 1 and 2 still T1 and T2, a named thread as it is.
func TestThreadNamesInProse(t *testing.T) {
	for _, c := range []struct{ a, b, wantA, wantB string }{
		{"1", "T1", "1", "T1"},
		{"T1", "1", "T1", "1"},
		{"1", "2", "T1", "T2"},
		{"main", "0", "main", "T0"},
	} {
		name := c.a + "," + c.b
		dir := t.TempDir()
		path := filepath.Join(dir, "lost.std")
		require.NoError(t, os.WriteFile(path, []byte(lostUpdateOf(c.a, c.b)), 0o644))
		read := func(f string) string {
			b, err := os.ReadFile(filepath.Join(dir, f))
			require.NoError(t, err, name)
			return string(b)
		}
		lanes := func(html string) []string {
			var got []string
			for _, m := range laneName.FindAllStringSubmatch(html, -1) {
				if !slices.Contains(got, m[1]) {
					got = append(got, m[1])
				}
			}
			slices.Sort(got)
			return got
		}
		want := []string{c.wantA, c.wantB}
		slices.Sort(want)

		out := conc("monitor", path, "--quiet", "--dot", filepath.Join(dir, "m.dot"), "--html", filepath.Join(dir, "m.html"))
		require.Equal(t, exitViolation, out.code, out.stderr)
		require.Contains(t, out.stdout, fmt.Sprintf("  path %s lines 1-5 → %s line 3 → back to %s:\n", c.wantA, c.wantB, c.wantA), name)
		require.Contains(t, out.stdout, fmt.Sprintf("    %s's read of x at line 2 comes before %s's write of x at line 3\n", c.wantA, c.wantB), name)
		dot := read("m.dot")
		require.Contains(t, dot, fmt.Sprintf(`[label="%s lines 1-5"]`, c.wantA), name)
		require.Contains(t, dot, fmt.Sprintf(`[label="%s line 3"]`, c.wantB), name)
		html := read("m.html")
		require.Equal(t, want, lanes(html), name)
		require.Contains(t, html, fmt.Sprintf("transaction %s lines 1-5: broken by itself", c.wantA), name)

		out = conc("predict", path, "--quiet", "--dot", filepath.Join(dir, "p.dot"), "--html", filepath.Join(dir, "p.html"))
		require.Equal(t, exitViolation, out.code, out.stderr)
		require.Contains(t, out.stdout, fmt.Sprintf("conflict cycle %s#1 (lines 1-open) → %s#1 (lines 3-open) → %s#1:\n", c.wantA, c.wantB, c.wantA), name)
		require.Contains(t, out.stdout, fmt.Sprintf("  %s's read of x at line 2 comes before %s's write of x at line 3\n", c.wantA, c.wantB), name)
		dot = read("p.dot")
		require.Contains(t, dot, fmt.Sprintf(`[label="%s#1 (lines 1-open)\l`, c.wantA), name)
		require.Contains(t, dot, fmt.Sprintf(`[label="%s#1 (lines 3-open)\l`, c.wantB), name)
		html = read("p.html")
		require.Equal(t, want, lanes(html), name)
		// The red box in the text's word: the run breaks A#1 by itself.
		require.Contains(t, out.stdout, fmt.Sprintf("%s#1 (lines 1-open) is broken by itself in this run", c.wantA), name)
		require.Contains(t, html, fmt.Sprintf("transaction %s#1: broken", c.wantA), name)
		require.Contains(t, html, fmt.Sprintf("transaction %s#1,", c.wantB), name)
	}
}
