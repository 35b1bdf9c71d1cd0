package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// lostUpdateTrace: T2's write falls between T1's read and write of x.
const lostUpdateTrace = `T1|begin|a.java:1
T1|r(x)|a.java:2
T2|w(x)|b.java:7
T1|w(x)|a.java:3
T1|end|a.java:4
`

// lockedTrace: the lock orders T2's transaction after T1's, but only lock
// edges see that T1's later read depends on T2 through the lock.
const lockedTrace = `T1|begin
T1|acq(m)
T1|r(x)
T1|rel(m)
T2|begin
T2|acq(m)
T2|w(y)
T2|rel(m)
T2|end
T1|r(y)
T1|end
`

func TestMonitorViolationJSON(t *testing.T) {
	path := file(t, "lost.std", lostUpdateTrace)
	out := conc("monitor", path, "--format", "json")
	require.Equal(t, exitViolation, out.code, out.stderr)
	var got struct {
		Verdict    string `json:"verdict"`
		Engine     string `json:"engine"`
		Threads    int    `json:"threads"`
		First      int    `json:"first"`
		Violations []struct {
			Thread string `json:"thread"`
			Begin  int    `json:"begin"`
			End    *int   `json:"end"`
			Cycle  []struct {
				Thread string `json:"thread"`
				Line   int    `json:"line"`
			} `json:"cycle"`
		} `json:"violations"`
		Stats map[string]int `json:"stats"`
	}
	require.NoError(t, json.Unmarshal([]byte(out.stdout), &got), out.stdout)
	require.Equal(t, "violation", got.Verdict)
	require.Equal(t, "monitor", got.Engine)
	require.Equal(t, 2, got.Threads)
	require.Equal(t, 4, got.First)
	require.Len(t, got.Violations, 2)
	v := got.Violations[0]
	require.Equal(t, "T1", v.Thread)
	require.Equal(t, 1, v.Begin)
	require.NotNil(t, v.End)
	require.Equal(t, 5, *v.End)
	require.Len(t, v.Cycle, 1)
	require.Equal(t, "T2", v.Cycle[0].Thread)
	require.Equal(t, 3, v.Cycle[0].Line)
	require.Equal(t, "T2", got.Violations[1].Thread)
	require.Equal(t, 5, got.Stats["events"])
}

func TestMonitorText(t *testing.T) {
	out := conc("monitor", file(t, "lost.std", lostUpdateTrace), "--quiet")
	require.Equal(t, exitViolation, out.code)
	require.Equal(t, "violation\n"+
		"first not serializable at trace line 4\n"+
		"T1's transaction at lines 1-5 is on a cycle: T2 line 3\n"+
		"T2's transaction at lines 3-3 is on a cycle: T1 line 4, T1 line 2\n", out.stdout)
}

func TestMonitorLockEdges(t *testing.T) {
	path := file(t, "locked.std", lockedTrace)
	out := conc("monitor", path)
	require.Equal(t, exitSerializable, out.code, out.stdout)
	require.True(t, strings.HasPrefix(out.stdout, "serializable\n"))
	out = conc("monitor", "--lock-edges", path, "--format", "json")
	require.Equal(t, exitViolation, out.code, out.stdout)
	require.Contains(t, out.stdout, `"first": 10`)
}

func TestMonitorStdinAndGzip(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"monitor", "-"}, strings.NewReader(lostUpdateTrace), &out, &errb)
	require.Equal(t, exitViolation, code, errb.String())

	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, err := zw.Write([]byte(lostUpdateTrace))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	p := filepath.Join(t.TempDir(), "lost.std.gz")
	require.NoError(t, os.WriteFile(p, z.Bytes(), 0o644))
	o := conc("monitor", p, "--first")
	require.Equal(t, exitViolation, o.code, o.stderr)
	require.Contains(t, o.stdout, "trace line 4")
}

func TestMonitorBadInput(t *testing.T) {
	path := file(t, "bad.std", "T|begin\nT|rd(x)\n")
	out := conc("monitor", path)
	require.Equal(t, exitUsage, out.code)
	require.Equal(t, path+":2: malformed op \"rd(x)\"\n", out.stderr)
	out = conc("monitor", path, "--lenient")
	require.Equal(t, exitSerializable, out.code, out.stderr)

	require.Equal(t, exitUsage, conc("monitor", filepath.Join(t.TempDir(), "none.std")).code)
	require.Equal(t, exitUsage, conc("monitor").code)
	require.Equal(t, exitUsage, conc("monitor", path, "--format", "xml").code)
	require.Equal(t, exitUsage, conc("monitor", path, "--bogus").code)
	require.Equal(t, 0, conc("monitor", "--help").code)
}

// The real-trace excerpts: a reduced sor prefix violates at its last line
// (RAPID's acq(@40)) with lock edges only.
func TestMonitorRealExcerpt(t *testing.T) {
	path := "../../testdata/traces/jgf-sor-reduced.std"
	out := conc("monitor", path, "--lock-edges", "--format", "json")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, `"first": 242`)
	require.Equal(t, exitSerializable, conc("monitor", path).code)
}

// longCycleTrace: T1's transaction, then twelve unary writes of T2 chained
// by program order, the first after T1's read of a, the last before T1's
// read of its variable: one cycle through fourteen transactions.
func longCycleTrace() string {
	var b strings.Builder
	b.WriteString("T1|begin\nT1|r(a)\nT2|w(a)\n")
	for i := range 12 {
		b.WriteString("T2|w(b" + string(rune('a'+i)) + ")\n")
	}
	b.WriteString("T1|r(bl)\nT1|end\n")
	return b.String()
}

func TestMonitorLongCycleElisionAndDOT(t *testing.T) {
	path := file(t, "long.std", longCycleTrace())
	dot := filepath.Join(t.TempDir(), "cycle.dot")
	out := conc("monitor", path, "--max-cycle", "4", "--dot", dot)
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "T1's transaction at lines 1-17 is on a cycle: T2 line 3")
	require.Regexp(t, `\.\.\. \d+ more transactions \.\.\.`, out.stdout)
	g, err := os.ReadFile(dot)
	require.NoError(t, err)
	require.Contains(t, string(g), "digraph conflicts {")
	require.Contains(t, string(g), `v0 [label="T1 lines 1-17"]`)
	require.Contains(t, string(g), "style=dashed")

	// With room for the whole cycle, every unary write of T2 is listed.
	out = conc("monitor", path, "--max-cycle", "50")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.NotContains(t, out.stdout, "more transaction")
	for line := 3; line <= 15; line++ {
		require.Contains(t, out.stdout, "T2 line "+strconv.Itoa(line))
	}

	out = conc("monitor", path, "--max-cycle", "0")
	require.Equal(t, exitUsage, out.code)
	require.Contains(t, out.stderr, "--max-cycle")
}
