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

// reorderTrace is serializable as observed (T2 runs after T1), but T2's
// write can fall between T1's read and write.
const reorderTrace = `T1|begin|a.java:1
T1|r(x)|a.java:2
T1|w(x)|a.java:3
T1|end|a.java:4
T2|w(x)|b.java:7
`

// guardedTrace: the lock keeps T2 out of T1's transaction.
const guardedTrace = `T1|acq(m)
T1|begin
T1|r(x)
T1|w(x)
T1|end
T1|rel(m)
T2|acq(m)
T2|w(x)
T2|rel(m)
`

// forkedTrace: T2 is forked after T1's transaction and joined before it.
const forkedTrace = `T1|begin
T1|r(x)
T1|w(x)
T1|end
T1|fork(T2)
T2|w(x)
T1|join(T2)
T1|begin
T1|r(x)
T1|fork(T3)
T3|w(x)
T1|w(x)
T1|end
`

type predictJSON struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	Engine  string `json:"engine"`
	Class   string `json:"class"`
	Threads int    `json:"threads"`
	Vars    int    `json:"vars"`
	Locks   int    `json:"locks"`
	Witness *struct {
		Run []struct {
			Thread string `json:"thread"`
			Op     string `json:"op"`
			Target string `json:"target"`
			Pos    string `json:"pos"`
		} `json:"run"`
		Cycle []struct{ From, To int } `json:"cycle"`
	} `json:"witness"`
	Stats map[string]int `json:"stats"`
}

func predictOut(t *testing.T, args ...string) (outcome, predictJSON) {
	t.Helper()
	out := conc(append([]string{"predict", "--format", "json"}, args...)...)
	var got predictJSON
	require.NoError(t, json.Unmarshal([]byte(out.stdout), &got), "%s\n%s", out.stdout, out.stderr)
	return out, got
}

func TestPredictReorders(t *testing.T) {
	path := file(t, "r.std", reorderTrace)
	require.Equal(t, exitSerializable, conc("monitor", path).code)
	out, got := predictOut(t, path)
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Equal(t, "violation", got.Verdict)
	require.Equal(t, "profile", got.Engine)
	require.Equal(t, "straight-line", got.Class)
	require.Equal(t, []int{2, 1, 0}, []int{got.Threads, got.Vars, got.Locks})
	require.Equal(t, 5, got.Stats["events"])
	require.NotNil(t, got.Witness)
	// T1 up to its read, T2's write (a unary transaction), T1's write.
	var ops []string
	for _, e := range got.Witness.Run {
		ops = append(ops, e.Thread+" "+e.Op+" "+e.Target+" "+e.Pos)
	}
	require.Equal(t, []string{
		"T1 begin  " + path + ":1", "T1 read x " + path + ":2",
		"T2 begin  " + path + ":5", "T2 write x " + path + ":5",
		"T1 write x " + path + ":3",
	}, ops)
	require.Len(t, got.Witness.Cycle, 2)
}

// TestPredictWitnessOutRoundTrip: the STD witness is a trace that conc
// monitor flags, and its LOC fields are the original lines.
func TestPredictWitnessOutRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		args      []string
	}{
		{"reorder", reorderTrace, nil},
		{"fork", forkedTrace, nil},
		{"fork lock-edges", forkedTrace, []string{"--lock-edges"}},
		{"ignore-sync", guardedTrace, []string{"--ignore-sync"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := file(t, "t.std", tc.src)
			wout := filepath.Join(t.TempDir(), "w.std")
			out := conc(append([]string{"predict", path, "--witness-out", wout}, tc.args...)...)
			require.Equal(t, exitViolation, out.code, out.stdout+out.stderr)
			w, err := os.ReadFile(wout)
			require.NoError(t, err)
			lines := strings.Split(strings.TrimSpace(string(w)), "\n")
			src := strings.Split(tc.src, "\n")
			for _, l := range lines {
				f := strings.Split(l, "|")
				require.Len(t, f, 3, l)
				n, err := strconv.Atoi(f[2])
				require.NoError(t, err)
				orig := strings.Split(src[n-1], "|")
				require.Equal(t, orig[0], f[0], "line %q comes from %q", l, src[n-1])
			}
			mon := conc(append([]string{"monitor", wout}, tc.args...)...)
			if tc.name == "ignore-sync" {
				mon = conc("monitor", wout)
			}
			require.Equal(t, exitViolation, mon.code, "%s\nwitness:\n%s", mon.stdout, w)
		})
	}
}

func TestPredictLocks(t *testing.T) {
	path := file(t, "g.std", guardedTrace)
	out, got := predictOut(t, path)
	require.Equal(t, exitSerializable, out.code, out.stderr)
	require.Equal(t, "global", got.Engine)
	out, got = predictOut(t, path, "--ignore-sync")
	require.Equal(t, exitViolation, out.code)
	require.Equal(t, "profile", got.Engine)
	require.Contains(t, got.Reason, "optimistic")
	out = conc("predict", path, "--engine", "profile")
	require.Equal(t, exitUsage, out.code)
	require.Contains(t, out.stderr, "--ignore-sync")
	out, got = predictOut(t, path, "--engine", "brute")
	require.Equal(t, exitSerializable, out.code, out.stderr)
	require.Equal(t, "brute", got.Engine)

	fpath := file(t, "f.std", forkedTrace)
	out, got = predictOut(t, fpath)
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Equal(t, "global", got.Engine)
	// T2 is joined before T1's second transaction: only T3 can interrupt it.
	for _, c := range got.Witness.Cycle {
		for _, i := range []int{c.From, c.To} {
			require.Contains(t, []string{"T1", "T3"}, got.Witness.Run[i].Thread)
		}
	}
}

func TestPredictLimitsAndInput(t *testing.T) {
	path := file(t, "r.std", reorderTrace)
	out := conc("predict", path, "--max-states", "1", "--engine", "global")
	require.Equal(t, exitUnknown, out.code, out.stdout+out.stderr)
	require.True(t, strings.HasPrefix(out.stdout, "unknown: "), out.stdout)

	out = conc("predict", path, "--timeout", "1ns")
	require.Equal(t, exitUnknown, out.code, out.stdout+out.stderr)
	require.Contains(t, out.stdout, "--timeout")

	var o, errb bytes.Buffer
	code := run([]string{"predict", "-"}, strings.NewReader(reorderTrace), &o, &errb)
	require.Equal(t, exitViolation, code, errb.String())

	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, err := zw.Write([]byte(reorderTrace))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	gz := filepath.Join(t.TempDir(), "r.std.gz")
	require.NoError(t, os.WriteFile(gz, z.Bytes(), 0o644))
	require.Equal(t, exitViolation, conc("predict", gz, "--quiet").code)

	bad := file(t, "bad.std", "T|begin\nT|rd(x)\n")
	out = conc("predict", bad)
	require.Equal(t, exitUsage, out.code)
	require.Equal(t, bad+":2: malformed op \"rd(x)\" in \"T|rd(x)\": OP, the second field of THREAD|OP|LOC, is one of r(V) w(V) acq(L) rel(L) fork(T) join(T) begin end\n", out.stderr)
	require.Equal(t, exitSerializable, conc("predict", bad, "--lenient").code)
	require.Equal(t, exitUsage, conc("predict").code)
	require.Equal(t, exitUsage, conc("predict", path, "--engine", "nope").code)
	require.Equal(t, exitUsage, conc("predict", path, "--witness-out", filepath.Join(t.TempDir(), "no", "w.std")).code)
	require.Equal(t, 0, conc("predict", "--help").code)
}

// TestPredictDefaultLimits: a large trace under one lock (conc gen random --trace)
// that only the product search could decide ends at once with unknown,
// exit 3 and the reason; auto proves it serializable from its critical
// sections; --max-states lifts the size guard and bounds the search.
func TestPredictDefaultLimits(t *testing.T) {
	gen := conc("gen", "random", "--trace", "--events", "200000", "--threads", "2", "--vars", "2", "--locks", "1", "--txn", "2")
	require.Equal(t, 0, gen.code, gen.stderr)
	path := file(t, "big.std", gen.stdout)
	out, got := predictOut(t, path, "--engine", "global")
	require.Equal(t, exitUnknown, out.code, out.stderr)
	require.Contains(t, got.Reason, "more than the global engine is started on by default")
	require.Contains(t, got.Reason, "--max-states")

	out, got = predictOut(t, path)
	require.Equal(t, exitSerializable, out.code, out.stderr)
	require.Equal(t, "global", got.Engine)

	out, got = predictOut(t, path, "--engine", "global", "--max-states", "300")
	require.Equal(t, exitUnknown, out.code, out.stderr)
	require.Contains(t, got.Reason, "--max-states 300")
}

// The text of predict shows the cycle's events and the few events of each
// of their threads that lead into them, not the whole witness run (which
// --witness-out and the JSON keep whole), and says how long the run is.
func TestPredictTextLeadIn(t *testing.T) {
	path := "../../testdata/traces/jgf-moldyn-reduced.std"
	wout := filepath.Join(t.TempDir(), "w.std")
	out := conc("predict", path, "--witness-out", wout)
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "witness run of 400 events (all of them: --format json; as a trace: --witness-out FILE)\n"+
		"it has 220 more events than the trace --witness-out writes (180): the begin and end it puts around each event outside a transaction\n"+
		"the cycle's events (*), each after at most 5 events of its own thread:\n"+
		"  ... 12 more events\n")
	require.Contains(t, out.stdout, "  * 399  0  read @0F[1]  ")
	require.Contains(t, out.stdout, "conflict cycle T0#1 (lines 1-open) → T1#111 (lines 173-open) → T0#1:\n")
	require.Less(t, strings.Count(out.stdout, "\n"), 40)
	require.Contains(t, out.stdout, "T0's write of @0F[1] at line 18 comes before T1's read of @0F[1]")
	w, err := os.ReadFile(wout)
	require.NoError(t, err)
	require.Greater(t, strings.Count(string(w), "\n"), 150, "--witness-out keeps the whole run")
	require.Contains(t, string(w), "0|w(@0F[1])|18\n")
	js := conc("predict", path, "--format", "json")
	var got struct {
		Witness struct {
			Run []map[string]any `json:"run"`
		} `json:"witness"`
	}
	require.NoError(t, json.Unmarshal([]byte(js.stdout), &got))
	require.Len(t, got.Witness.Run, 400)
}

// predict's DOT lists a long transaction's first, last and cycle events
// only, so that Graphviz can lay out a trace's main thread.
func TestPredictDOTLongTransaction(t *testing.T) {
	dot := filepath.Join(t.TempDir(), "c.dot")
	out := conc("predict", "../../testdata/traces/jgf-moldyn-reduced.std", "--dot", dot)
	require.Equal(t, exitViolation, out.code, out.stderr)
	g, err := os.ReadFile(dot)
	require.NoError(t, err)
	require.Contains(t, string(g), `t0 [label="T0#1 (lines 1-open)\l0: begin  ../../testdata/traces/jgf-moldyn-reduced.std:1\l… 16 more events\l`+
		`17: write @0F[1]  ../../testdata/traces/jgf-moldyn-reduced.std:18\l… 48 more events\l`+
		`399: read @0F[1]  ../../testdata/traces/jgf-moldyn-reduced.std:244\l"];`)
}

// TestPredictTextShortPositions: predict's text names a trace's positions
// "line N", as monitor does (one trace: its path on every event made lines
// of 300 characters); the JSON keeps pos whole, and check's text keeps a
// program's file:line:col.
func TestPredictTextShortPositions(t *testing.T) {
	path := "../../testdata/traces/jgf-sor-reduced.std"
	out := conc("predict", path)
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.NotContains(t, out.stdout, path)
	require.Contains(t, out.stdout, "  * 73   0  write @26[41]  line 66\n")
	require.Contains(t, out.stdout, "T0's write of @26[41] at line 66 comes before T1's read of @26[41] at line 95\n")
	all := conc("predict", path, "--all")
	require.Equal(t, exitViolation, all.code, all.stderr)
	require.NotContains(t, all.stdout, path)
	js := conc("predict", path, "--format", "json")
	require.Contains(t, js.stdout, `"pos": "`+path+`:66"`)
	chk := conc("check", "../../examples/bank.conc")
	require.Regexp(t, `at \.\./\.\./examples/bank\.conc:\d+:\d+ comes before`, chk.stdout)
}
