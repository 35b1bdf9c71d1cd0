package record

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/trace"
)

// recordStatus records the package pkg of testdata/hard and returns its
// trace's text and the tests' exit status.
func recordStatus(t *testing.T, pkg string, flags ...string) (string, int) {
	t.Helper()
	var out bytes.Buffer
	o := Options{Dir: filepath.Join("testdata", "hard"), Out: t.TempDir(), Stdout: &out, Stderr: &out,
		Patterns: []string{"./" + pkg}, GoFlags: flags}
	results, status, err := Run(o)
	require.NoError(t, err, out.String())
	require.Len(t, results, 1, out.String())
	require.NotEmpty(t, results[0].Trace, "%s: no trace\n%s", pkg, out.String())
	return gunzip(t, results[0].Trace), status
}

// requireReads: the trace is one that conc reads (the ordering extension
// on), every line an event.
func requireReads(t *testing.T, std string) {
	t.Helper()
	r, err := trace.NewReader(strings.NewReader(std), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	for {
		if _, err := r.Next(); err != nil {
			require.Equal(t, "EOF", err.Error(), std)
			return
		}
	}
}

// What real tests do and the recorder must take: generic types and
// functions with closures and method values, a goroutine started in
// init, parallel subtests, a receive from time.After's channel (no
// instrumented send gave its value: no take), a test that calls os.Exit (go test's failing
// status passed on, the trace closed before the exit, not cut).
func TestRecordHardCases(t *testing.T) {
	for _, pkg := range []string{"gen", "initgo", "par", "tafter"} {
		std, status := recordStatus(t, pkg)
		require.Zero(t, status, pkg)
		requireReads(t, std)
	}
	std, status := recordStatus(t, "exitp")
	require.Equal(t, 1, status)
	requireReads(t, std)
	require.Contains(t, std, "|w(exitp.X)|")
	require.NotContains(t, std, "*|cut|")
}

// A test binary that go test kills (-timeout) leaves a trace of what it
// flushed, ended by the cut line (docs/record.md), which conc refuses
// without --lenient.
func TestRecordKilledBinary(t *testing.T) {
	std, status := recordStatus(t, "slow", "-timeout", "1s")
	require.Equal(t, 1, status)
	require.True(t, strings.HasSuffix(std, "*|cut|the test binary stopped before closing its trace\n"), std)
	r, err := trace.NewReader(strings.NewReader(std), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	for {
		if _, err = r.Next(); err != nil {
			break
		}
	}
	require.ErrorContains(t, err, "the trace was cut")
}
