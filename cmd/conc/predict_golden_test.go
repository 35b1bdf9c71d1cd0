package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The text conc predict prints for each real-trace excerpt
// (testdata/traces), kept as golden files as monitor's are: the abridged
// witness run (the cycle's events and their lead-in), the cycle in words
// and the header that says how long the run is and where the whole of it
// goes. Raytracer's excerpt violates only with lock edges, so it is also
// kept under --lock-edges (the fork edge in words); sor's DOT too.
func TestPredictGoldenExcerpts(t *testing.T) {
	dir := "../../testdata/traces"
	violating := 0
	for _, x := range traceExcerpts(t, dir) {
		name := x.name
		out := conc("predict", filepath.Join(dir, x.file), "--quiet")
		require.Empty(t, out.stderr, name)
		golden(t, filepath.Join("predict", name+".txt"), out.stdout)
		if out.code == exitViolation {
			if strings.HasPrefix(name, "jgf-") {
				violating++
			}
			require.Regexp(t, runHeader, out.stdout, name)
		}
	}
	require.Equal(t, 3, violating, "lufact, moldyn and sor violate without lock edges")

	out := conc("predict", filepath.Join(dir, "jgf-raytracer-reduced.std"), "--quiet", "--lock-edges")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "(T1 runs only after its fork)")
	golden(t, "predict/jgf-raytracer-reduced.lock-edges.txt", out.stdout)

	// Sor's DOT: a box per transaction, named with its trace lines as the
	// text names it (T0#5 (lines 5-open)), its long one abridged to the
	// cycle's events (… N more events), an edge per conflict.
	dot := filepath.Join(t.TempDir(), "sor.dot")
	out = conc("predict", filepath.Join(dir, "jgf-sor-reduced.std"), "--dot", dot)
	require.Equal(t, exitViolation, out.code, out.stderr)
	g, err := os.ReadFile(dot)
	require.NoError(t, err)
	golden(t, "predict/jgf-sor-reduced.dot", string(g))
	require.Contains(t, string(g), `t0 [label="T0#5 (lines 5-open)\l`)
	require.Contains(t, string(g), `t1 [label="T1#3 (lines 95-95)\l`)
}
