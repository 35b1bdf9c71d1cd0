package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
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
	out := conc("monitor", path, "--cycles", "--format", "json")
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

// The --cycles text names each transaction of a cycle once, and each conflict in
// words with its lines, ops and variable; the groups' signatures are made
// of the trace's code locations (LOC).
func TestMonitorText(t *testing.T) {
	out := conc("monitor", file(t, "lost.std", lostUpdateTrace), "--cycles", "--quiet")
	require.Equal(t, exitViolation, out.code)
	require.Equal(t, "violation\n"+
		"first not serializable at trace line 4\n"+
		"2 violating transactions in 2 groups (grouped by code locations: docs/traces.md)\n"+
		"group 1: 1 violating transaction, first at line 1, on x\n"+
		"  signature: r@a.java:2 w@a.java:3 | r@a.java:2→w@b.java:7 | w@b.java:7→w@a.java:3\n"+
		"  cycle T1 lines 1-5 → T2 lines 3-3 → back to T1:\n"+
		"    T1's read of x at line 2 comes before T2's write of x at line 3\n"+
		"    T2's write of x at line 3 comes before T1's write of x at line 4\n"+
		"group 2: 1 violating transaction, first at line 3, on x\n"+
		"  signature: unary | r@a.java:2→w@b.java:7 | w@b.java:7→w@a.java:3\n"+
		"  cycle T2 lines 3-3 → T1 lines 1-5 → back to T2:\n"+
		"    T2's write of x at line 3 comes before T1's write of x at line 4\n"+
		"    T1's read of x at line 2 comes before T2's write of x at line 3\n", out.stdout)
}

// Under --cycles, --max-groups bounds the groups listed, --all adds every
// violating transaction; a trace from standard input cannot be read again, so its
// events are named by line only.
func TestMonitorMaxGroupsAllAndStdin(t *testing.T) {
	path := file(t, "lost.std", lostUpdateTrace)
	out := conc("monitor", path, "--cycles", "--quiet", "--max-groups", "1", "--all")
	require.Equal(t, exitViolation, out.code)
	require.Contains(t, out.stdout, "group 1: ")
	require.NotContains(t, out.stdout, "group 2: ")
	require.Contains(t, out.stdout, "... and 1 more group (--max-groups 0 shows all)\n"+
		"violating transactions:\n  T1 lines 1-5: group 1\n  T2 lines 3-3: group 2\n")
	out = concStdin(lostUpdateTrace, "monitor", "-", "--cycles", "--quiet")
	require.Equal(t, exitViolation, out.code)
	require.Contains(t, out.stdout, "    T1's event at line 2 comes before T2's event at line 3\n")
	require.Equal(t, exitUsage, conc("monitor", path, "--max-groups", "-1").code)
}

// A thousand lost updates from the same code are one group: the --cycles
// text stays a screen long (it listed every violating transaction, a line
// each, before the groups). Numeric thread ids read T0, T1 in prose.
func TestMonitorGroupsRepeats(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		x := "x" + strconv.Itoa(i)
		b.WriteString("0|begin|\n0|r(" + x + ")|A.java:2\n1|w(" + x + ")|B.java:7\n0|w(" + x + ")|A.java:3\n0|end|\n")
	}
	out := conc("monitor", file(t, "many.std", b.String()), "--cycles")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "2000 violating transactions in 2 groups")
	require.Contains(t, out.stdout, "group 1: 1000 violating transactions, first at line 1, on x0\n")
	require.Contains(t, out.stdout, "T0's read of x0 at line 2 comes before T1's write of x0 at line 3")
	require.Less(t, strings.Count(out.stdout, "\n"), 20)

	// --dot draws the groups' example cycles: a box per transaction, an
	// edge per conflicting pair, none twice; --max-groups 1 draws one.
	dot := filepath.Join(t.TempDir(), "groups.dot")
	out = conc("monitor", file(t, "many.std", b.String()), "--cycles", "--dot", dot, "--max-groups", "1")
	require.Equal(t, exitViolation, out.code, out.stderr)
	g, err := os.ReadFile(dot)
	require.NoError(t, err)
	require.Equal(t, "digraph conflicts {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n"+
		"  t0 [label=\"T0 lines 1-5\"];\n  t1 [label=\"T1 lines 3-3\"];\n"+
		"  t0 -> t1 [label=\"x0\"];\n  t1 -> t0 [label=\"x0\"];\n}\n", string(g))
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
	require.Equal(t, path+":2: malformed op \"rd(x)\" in \"T|rd(x)\": OP, the second field of THREAD|OP|LOC, is one of r(V) w(V) acq(L) rel(L) fork(T) join(T) begin end\n", out.stderr)
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

// relayTrace: T1's transaction, then T2 to T6 each a unary read of what
// the one before wrote and a unary write, from T2's write of a to T6's of
// bl, which T1 reads: one cycle through eleven transactions that no
// program-order shortcut makes shorter than five threads.
func relayTrace() string {
	var b strings.Builder
	b.WriteString("T1|begin\nT1|r(a)\nT2|w(a)\nT2|w(c2)\n")
	for i := 3; i <= 6; i++ {
		w := "c" + strconv.Itoa(i)
		if i == 6 {
			w = "bl"
		}
		fmt.Fprintf(&b, "T%d|r(c%d)\nT%d|w(%s)\n", i, i-1, i, w)
	}
	b.WriteString("T1|r(bl)\nT1|end\n")
	return b.String()
}

func TestMonitorLongCycleElisionAndDOT(t *testing.T) {
	path := file(t, "relay.std", relayTrace())
	dot := filepath.Join(t.TempDir(), "cycle.dot")
	out := conc("monitor", path, "--cycles", "--max-cycle", "4", "--dot", dot)
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "  cycle T1 lines 1-14 → T2 lines 3-3 → T2 lines 4-4 → ... 8 more transactions ... → back to T1:\n"+
		"    T1's read of a at line 2 comes before T2's write of a at line 3\n")
	g, err := os.ReadFile(dot)
	require.NoError(t, err)
	require.Contains(t, string(g), "digraph conflicts {")
	require.Contains(t, string(g), `t0 [label="T1 lines 1-14"]`)
	require.Contains(t, string(g), `t0 -> t1 [label="a"]`)
	require.Contains(t, string(g), `t1 -> t2 [label="program order"]`)
	require.Contains(t, string(g), "style=dashed")

	// With room for the whole cycle, every transaction on it is listed.
	out = conc("monitor", path, "--cycles", "--max-cycle", "50")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.NotContains(t, out.stdout, "more transaction")
	require.Contains(t, out.stdout, "  cycle T1 lines 1-14 → T2 lines 3-3 → T2 lines 4-4 → T3 lines 5-5 → T3 lines 6-6 → "+
		"T4 lines 7-7 → T4 lines 8-8 → T5 lines 9-9 → T5 lines 10-10 → T6 lines 11-11 → T6 lines 12-12 → back to T1:\n")

	out = conc("monitor", path, "--max-cycle", "0")
	require.Equal(t, exitUsage, out.code)
	require.Contains(t, out.stderr, "--max-cycle")
}

// T2's thirteen unary writes, chained by program order, are one
// program-order hop of the cycle (docs/traces.md, program-order
// shortcuts): the whole cycle fits --max-cycle 4 and shows both conflicts
// with T1, where hop by hop it was elided.
func TestMonitorShortcutsProgramOrder(t *testing.T) {
	path := file(t, "long.std", longCycleTrace())
	out := conc("monitor", path, "--cycles", "--max-cycle", "4")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.NotContains(t, out.stdout, "more transaction")
	require.Contains(t, out.stdout, "  cycle T1 lines 1-17 → T2 lines 3-3 → T2 lines 15-15 → back to T1:\n"+
		"    T1's read of a at line 2 comes before T2's write of a at line 3\n"+
		"    T2's write of a at line 3 comes before T2's write of bl at line 15 (program order of T2)\n"+
		"    T2's write of bl at line 15 comes before T1's read of bl at line 16\n")
}
