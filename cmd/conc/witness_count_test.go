package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/trace"
)

// runHeader is predict's witness-run header: the run's length, and the
// --witness-out file's when it is shorter, with the difference.
var runHeader = regexp.MustCompile(`(?m)^witness run of (\d+) events? \(all of them: --format json; as a trace: --witness-out FILE\)\n` +
	`(?:it has (\d+) more events? than the trace --witness-out writes \((\d+)\): the begin and end it puts around each event outside a transaction\n)?` +
	`the cycle's events \(\*\), each after at most \d+ events of its own thread:\n`)

// checkWitnessCounts runs conc predict on path with args and, on a
// violation, holds its text's counts to the files: the --witness-out
// file has as many lines as the text says it writes, and the JSON's
// witness.run as many events as the text's run. It reports whether the
// two counts differ (the text names both).
func checkWitnessCounts(t *testing.T, path string, args ...string) (violation, differ bool) {
	t.Helper()
	wit := filepath.Join(t.TempDir(), "w.std")
	out := conc(append([]string{"predict", path, "--quiet", "--witness-out", wit}, args...)...)
	if out.code != exitViolation {
		require.Contains(t, []int{exitSerializable, exitUnknown}, out.code, out.stderr)
		return false, false
	}
	m := runHeader.FindStringSubmatch(out.stdout)
	require.NotNil(t, m, "%s %v: no witness header in\n%s", path, args, out.stdout)
	runLen, _ := strconv.Atoi(m[1])
	written := runLen
	if m[3] != "" {
		written, _ = strconv.Atoi(m[3])
		require.Less(t, written, runLen, "%s %v: the text names the file's count only when it differs", path, args)
		require.Equal(t, strconv.Itoa(runLen-written), m[2], "%s %v: the difference", path, args)
	}
	b, err := os.ReadFile(wit)
	require.NoError(t, err)
	require.Equal(t, written, strings.Count(string(b), "\n"), "%s %v: --witness-out's lines\n%s", path, args, out.stdout)

	js := conc(append([]string{"predict", path, "--format", "json"}, args...)...)
	var got struct {
		Witness struct {
			Run []json.RawMessage `json:"run"`
		} `json:"witness"`
	}
	require.NoError(t, json.Unmarshal([]byte(js.stdout), &got), js.stdout)
	require.Len(t, got.Witness.Run, runLen, "%s %v: the JSON's run", path, args)
	return true, m[3] != ""
}

// TestPredictTextCountsWitnessFile: the number of events predict's text
// says --witness-out writes is the file's line count (the begin and end
// around unary events are in the run and the JSON but not in the file),
// on the real excerpts and on random traces, with and without lock edges.
func TestPredictTextCountsWitnessFile(t *testing.T) {
	violations, differ := 0, 0
	count := func(v, d bool) {
		if v {
			violations++
		}
		if d {
			differ++
		}
	}
	dir := "../../testdata/traces"
	for _, x := range traceExcerpts(t, dir) {
		count(checkWitnessCounts(t, filepath.Join(dir, x.file)))
		count(checkWitnessCounts(t, filepath.Join(dir, x.file), "--lock-edges"))
	}
	rng := rand.New(rand.NewPCG(21, 21))
	tmp := t.TempDir()
	for i := range testflag.N(60, 1500) {
		o := trace.GenOptions{Seed: uint64(i), Events: int64(5 + rng.IntN(40)), Threads: 2 + rng.IntN(3),
			Vars: 1 + rng.IntN(4), Locks: rng.IntN(3), TxnLen: 1 + rng.IntN(4), Unprotected: rng.Float64() * 0.6,
			Unary: rng.Float64() * 0.5, Nested: rng.Float64() * 0.3, Writes: 0.2 + rng.Float64()*0.6, Fork: rng.IntN(2) == 0}
		path := genTraceFile(t, tmp, i, o)
		args := []string{}
		if rng.IntN(2) == 0 {
			args = append(args, "--lock-edges")
		}
		count(checkWitnessCounts(t, path, args...))
	}
	t.Logf("%d violations, %d with fewer events in the file", violations, differ)
	require.Greater(t, violations, 10)
	require.Greater(t, differ, 3, "unary events should make the file shorter often")
}
