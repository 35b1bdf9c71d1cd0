package predict

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/verify"
)

// realExcerpt reads a trace excerpt of ../testdata/traces (real RoadRunner
// traces of the Java Grande benchmarks), inflating .gz ones.
func realExcerpt(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		require.NoError(t, err)
		b, err = io.ReadAll(zr)
		require.NoError(t, err)
	}
	return string(b)
}

// TestRealExcerpts: on the real excerpts (forks, joins, locks, one main
// transaction around the workers) the shortcuts of --engine auto and the
// product search of --engine global agree, and every witness replays on the
// projection program and round-trips through STD and the trace monitor.
func TestRealExcerpts(t *testing.T) {
	paths, err := filepath.Glob("../testdata/traces/jgf-*.std*")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(paths), 6)
	violations := 0
	for _, path := range paths {
		src := realExcerpt(t, path)
		full := projectionOf(t, src)
		for _, lockEdges := range []bool{false, true} {
			check := engines.Options{LockEdges: lockEdges}
			auto := predictString(t, src, Options{Check: check})
			global := predictString(t, src, Options{Engine: "global", Check: check})
			name := filepath.Base(path)
			require.Equal(t, global.Result.Verdict, auto.Result.Verdict, "%s lock edges %v", name, lockEdges)
			require.NotEqual(t, engines.Unknown, auto.Result.Verdict)
			for _, out := range []*Outcome{auto, global} {
				if out.Result.Verdict == engines.Violation {
					violations++
					require.NoError(t, verify.Witness(full, out.Result.Witness), "%s lock edges %v", name, lockEdges)
					requireSTDRoundTrip(t, src, out, lockEdges)
				}
			}
		}
	}
	require.GreaterOrEqual(t, violations, 10)
}
