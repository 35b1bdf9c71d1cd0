package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// gzipFile writes src gzip'd to a fresh file and returns its path and
// the compressed bytes.
func gzipFile(t *testing.T, name, src string) (string, []byte) {
	t.Helper()
	gz := gzipped(t, []byte(src))
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, gz, 0o644))
	return p, gz
}

// gzipped is data compressed with gzip.
func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, err := zw.Write(data)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return z.Bytes()
}

// A violating trace, gzip'd and cut at any byte, is bad input for monitor
// and predict (exit 2, a message saying so and where reading stopped),
// never a verdict: cut in its last bytes it must not read as a shorter
// trace and answer serializable.
func TestTraceGzipCutIsBadInput(t *testing.T) {
	_, gz := gzipFile(t, "lost.std.gz", lostUpdateTrace)
	cut := filepath.Join(t.TempDir(), "cut.std.gz")
	for n := 2; n < len(gz); n++ {
		require.NoError(t, os.WriteFile(cut, gz[:n], 0o644))
		for _, cmd := range []string{"monitor", "predict"} {
			o := conc(cmd, cut)
			require.Equal(t, exitUsage, o.code, "%s, cut at %d: %s%s", cmd, n, o.stdout, o.stderr)
			require.Empty(t, o.stdout, "%s, cut at %d", cmd, n)
			require.Regexp(t, `cut\.std\.gz:\d+: reading stopped: gzip data truncated or corrupt`, o.stderr, "%s, cut at %d", cmd, n)
		}
	}
}

// A trace with old Mac line ends (a lone '\r') reads as the same trace: a
// violation, at the same line, not one line that is serializable.
func TestTraceCarriageReturnLines(t *testing.T) {
	cr := file(t, "lost.std", strings.ReplaceAll(lostUpdateTrace, "\n", "\r"))
	for _, cmd := range []string{"monitor", "predict"} {
		o := conc(cmd, cr)
		require.Equal(t, exitViolation, o.code, "%s: %s%s", cmd, o.stdout, o.stderr)
	}
	require.Contains(t, conc("monitor", cr).stdout, "trace line 4")
}

// A LOC with a '|' (a fourth field) is a malformed line with its number.
func TestTraceLocationWithBar(t *testing.T) {
	bad := file(t, "bad.std", strings.Replace(lostUpdateTrace, "b.java:7", "b.java|7", 1))
	for _, cmd := range []string{"monitor", "predict"} {
		o := conc(cmd, bad)
		require.Equal(t, exitUsage, o.code, cmd)
		require.Equal(t, bad+`:3: malformed location "b.java|7": want THREAD|OP|LOC, LOC without '|' or control characters`+"\n", o.stderr)
	}
}

// lenientTrace has a malformed op (line 2), a rel of a lock not held
// (line 4) and an end without begin (line 7); what is left is a violation.
const lenientTrace = "T|begin\nT|rd(x)\nT|r(x)\nU|rel(m)\nU|w(x)\nT|w(x)\nU|end\nT|end\n"

// --lenient says what it skipped: a line on standard error in text, and
// "skipped" with "skipped_kinds" in the JSON, for monitor and predict.
// Without --lenient the output has neither; with nothing skipped, the
// JSON says "skipped": 0 and standard error stays empty.
func TestTraceLenientReportsSkipped(t *testing.T) {
	path := file(t, "len.std", lenientTrace)
	clean := file(t, "clean.std", lostUpdateTrace)
	for _, cmd := range []string{"monitor", "predict"} {
		o := conc(cmd, path, "--lenient")
		require.Equal(t, exitViolation, o.code, o.stderr)
		require.Equal(t, "conc: --lenient skipped 3 lines (first at line 2): 1 malformed, 1 rel of a lock not held, 1 end without begin\n", o.stderr, cmd)

		o = conc(cmd, path, "--lenient", "--format", "json")
		require.Equal(t, exitViolation, o.code, o.stderr)
		require.Empty(t, o.stderr)
		var js struct {
			Skipped      *int64           `json:"skipped"`
			SkippedKinds map[string]int64 `json:"skipped_kinds"`
		}
		require.NoError(t, json.Unmarshal([]byte(o.stdout), &js), o.stdout)
		require.NotNil(t, js.Skipped, cmd)
		require.Equal(t, int64(3), *js.Skipped)
		require.Equal(t, map[string]int64{"malformed": 1, "release_not_held": 1, "end_without_begin": 1}, js.SkippedKinds)

		o = conc(cmd, clean, "--lenient", "--format", "json")
		require.Empty(t, o.stderr)
		require.Contains(t, o.stdout, "\n  \"skipped\": 0,\n", cmd)
		require.NotContains(t, o.stdout, "skipped_kinds")
		require.Empty(t, conc(cmd, clean, "--lenient").stderr)

		o = conc(cmd, clean, "--format", "json")
		require.NotContains(t, o.stdout, "skipped", cmd)
	}
}

// monitor --first stops reading at the first violation; on gzip input it
// still reads the rest of the stream to check it, so a violation is never
// reported from a file whose checksum fails further on.
func TestMonitorFirstChecksGzipRest(t *testing.T) {
	src := lostUpdateTrace + strings.Repeat("C|r(y)\n", 5000)
	p, gz := gzipFile(t, "lost.std.gz", src)
	o := conc("monitor", "--first", p)
	require.Equal(t, exitViolation, o.code, o.stderr)
	damaged := append([]byte(nil), gz...)
	copy(damaged[len(damaged)-8:], []byte{0x55, 0xaa, 0x5a}) // the CRC-32
	require.NoError(t, os.WriteFile(p, damaged, 0o644))
	o = conc("monitor", "--first", p)
	require.Equal(t, exitUsage, o.code, o.stdout)
	require.Empty(t, o.stdout)
	require.Regexp(t, `lost\.std\.gz:\d+: reading stopped: gzip data truncated or corrupt \(gzip: invalid checksum\)`, o.stderr)
}

// The ordering extension's impossible lines (docs/spec.md §3) are errors
// with their line in every trace command, and --lenient counts them by
// kind; the rest of the trace is then decided.
func TestTraceOrderingErrors(t *testing.T) {
	src := "T1|begin\nT1|r(x)\nT1|post(m)\nT2|wait(m)\nT2|w(x)\nT1|post(m)\nT1|racq(l)\nT2|acq(l)\nT1|w(x)\nT1|end\n"
	path := file(t, "ord.std", src)
	for _, args := range [][]string{{"monitor"}, {"predict"}, {"predict", "--all"}} {
		o := conc(append(args, path)...)
		require.Equal(t, exitUsage, o.code, "%v: %s", args, o.stdout)
		require.Equal(t, path+":6: post(m) after a wait for it at line 4\n", o.stderr, args)
		o = conc(append(args, path, "--lenient")...)
		require.Equal(t, exitViolation, o.code, "%v: %s%s", args, o.stdout, o.stderr)
		require.Equal(t, "conc: --lenient skipped 2 lines (first at line 6): 1 acq of a lock held by another thread, 1 post after a wait for its message\n", o.stderr, args)
	}
}

// predict's signature names the code locations of the broken
// transaction's path, read from the trace file a second time; from
// standard input, read once, it names ops and variables; the JSON has it
// too.
func TestPredictSignature(t *testing.T) {
	src := "T1|begin|a.go:1\nT1|r(x)|a.go:2\nT2|w(x)|b.go:7\nT1|w(x)|a.go:3\nT1|end|a.go:4\n"
	path := file(t, "sig.std", src)
	o := conc("predict", path)
	require.Equal(t, exitViolation, o.code, o.stderr)
	require.Contains(t, o.stdout, "\n  signature: r@a.go:2 | w@b.go:7 | w@a.go:3\n")
	o = concStdin(src, "predict", "-")
	require.Equal(t, exitViolation, o.code, o.stderr)
	require.Contains(t, o.stdout, "\n  signature: r x | w x | w x\n")
	o = conc("predict", path, "--format", "json")
	require.Contains(t, o.stdout, `"signature": "r@a.go:2 | w@b.go:7 | w@a.go:3"`)
	o = conc("predict", "--all", path)
	require.NotContains(t, o.stdout, "signature: r@a.go:2 |", "--all's groups have their own signature")
}
