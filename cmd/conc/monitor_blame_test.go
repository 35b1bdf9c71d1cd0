package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// brokenTrace: T2's write of x falls between T1's two reads of it, so T1's
// transaction is broken by itself: the path leaves it at line 2 and comes
// back at line 4.
const brokenTrace = `T1|begin|a.java:1
T1|r(x)|a.java:2
T2|w(x)|b.java:7
T1|r(x)|a.java:3
T1|end|a.java:4
`

// writeSkewTrace: each transaction reads what the other writes. Neither
// is broken by itself (no path leaves one and comes back into it through
// the other alone), but they cannot both be atomic: a joint violation.
const writeSkewTrace = `T1|begin|a:1
T2|begin|b:1
T1|r(x)|a:2
T2|r(y)|b:2
T1|w(y)|a:3
T2|w(x)|b:3
T1|end|a:4
T2|end|b:4
`

// blameJSON is conc monitor's default JSON answer, and --cycles' counts.
type blameJSON struct {
	Verdict          string       `json:"verdict"`
	First            int          `json:"first"`
	NonAtomic        *int         `json:"non_atomic"`
	NonAtomicGroups  []groupJSON  `json:"non_atomic_groups"`
	NonAtomicTxns    []brokenJSON `json:"non_atomic_transactions"`
	Joint            []groupJSON  `json:"joint"`
	OnCycle          *int         `json:"on_cycle"`
	NonAtomicUnknown string       `json:"non_atomic_unknown"`
	groupsJSON
}

// brokenJSON is one of non_atomic_transactions.
type brokenJSON struct {
	Thread string `json:"thread"`
	Begin  int    `json:"begin"`
	End    *int   `json:"end"`
	Group  int    `json:"group"`
	Path   []struct {
		From pathEventJSON `json:"from"`
		To   pathEventJSON `json:"to"`
	} `json:"path"`
}

type pathEventJSON struct {
	Thread string `json:"thread"`
	Line   int    `json:"line"`
	Op     string `json:"op"`
	Target string `json:"target"`
	Loc    string `json:"loc"`
}

// monitorBlame runs conc monitor with args and --format json, and decodes
// its answer.
func monitorBlame(t *testing.T, args ...string) (blameJSON, outcome) {
	t.Helper()
	out := conc(append(append([]string{"monitor"}, args...), "--format", "json")...)
	var got blameJSON
	require.NoError(t, json.Unmarshal([]byte(out.stdout), &got), "%v: %s%s", args, out.stdout, out.stderr)
	return got, out
}

// A transaction broken by itself: the text names the path's two conflicts
// in words, the JSON lists its path event by event, with lines, ops,
// targets and code locations; both count the two transactions on the
// cycle (T1's and T2's unary write).
func TestMonitorBrokenTransaction(t *testing.T) {
	path := file(t, "broken.std", brokenTrace)
	out := conc("monitor", path, "--quiet")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Equal(t, "violation\n"+
		"first not serializable at trace line 4\n"+
		"1 transaction broken by itself, in 1 group (grouped by code locations: docs/traces.md, \"Broken transactions\")\n"+
		"group 1: 1 broken transaction, first at line 1, on x\n"+
		"  signature: r@a.java:2 | w@b.java:7 | r@a.java:3\n"+
		"  path T1 lines 1-5 → T2 line 3 → back to T1:\n"+
		"    T1's read of x at line 2 comes before T2's write of x at line 3\n"+
		"    T2's write of x at line 3 comes before T1's read of x at line 4\n"+
		"1 atomic block on a cycle of conflicts (--cycles groups every transaction on one)\n", out.stdout)

	got, o := monitorBlame(t, path)
	require.Equal(t, exitViolation, o.code, o.stderr)
	require.Equal(t, "violation", got.Verdict)
	require.Equal(t, 4, got.First)
	require.Equal(t, 1, *got.NonAtomic)
	require.Equal(t, 1, *got.OnCycle, "T1's block; T2's write is unary")
	require.Empty(t, got.Joint)
	require.Empty(t, got.Violations, "the cycles are --cycles' answer")
	require.Len(t, got.NonAtomicGroups, 1)
	g := got.NonAtomicGroups[0]
	require.Equal(t, "r@a.java:2 | w@b.java:7 | r@a.java:3", g.Signature)
	require.Equal(t, 1, g.Count)
	require.Equal(t, 1, g.First)
	require.Len(t, got.NonAtomicTxns, 1)
	b := got.NonAtomicTxns[0]
	require.Equal(t, "T1", b.Thread)
	require.Equal(t, 1, b.Begin)
	require.Equal(t, 5, *b.End)
	require.Equal(t, 1, b.Group)
	r2 := pathEventJSON{"T1", 2, "r", "x", "a.java:2"}
	w3 := pathEventJSON{"T2", 3, "w", "x", "b.java:7"}
	r4 := pathEventJSON{"T1", 4, "r", "x", "a.java:3"}
	require.Len(t, b.Path, 2)
	require.Equal(t, [4]pathEventJSON{r2, w3, w3, r4}, [4]pathEventJSON{b.Path[0].From, b.Path[0].To, b.Path[1].From, b.Path[1].To})
}

// --max-groups bounds the groups of broken transactions listed, and --all
// lists every broken transaction with its group.
func TestMonitorBrokenMaxGroupsAll(t *testing.T) {
	two := brokenTrace + "T3|begin|c.java:1\nT3|r(y)|c.java:2\nT4|w(y)|d.java:7\nT3|w(y)|c.java:3\nT3|end|c.java:4\n"
	path := file(t, "two.std", two)
	out := conc("monitor", path, "--quiet", "--max-groups", "1", "--all")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "2 transactions broken by themselves, in 2 groups")
	require.Contains(t, out.stdout, "group 1: 1 broken transaction, first at line 1, on x\n")
	require.NotContains(t, out.stdout, "group 2: ")
	require.True(t, strings.HasSuffix(out.stdout, "... and 1 more group (--max-groups 0 shows all)\n"+
		"2 atomic blocks on a cycle of conflicts (--cycles groups every transaction on one)\n"+
		"broken transactions:\n  T1 lines 1-5: group 1\n  T3 lines 6-10: group 2\n"), out.stdout)

	all := conc("monitor", path, "--quiet", "--max-groups", "0")
	require.Contains(t, all.stdout, "group 2: 1 broken transaction, first at line 6, on y\n"+
		"  signature: r@c.java:2 | w@d.java:7 | w@c.java:3\n"+
		"  path T3 lines 6-10 → T4 line 8 → back to T3:\n")
	require.NotContains(t, all.stdout, "more group")
	require.NotContains(t, all.stdout, "broken transactions:")
}

// A write skew is not serializable, yet neither transaction is broken by
// itself: the answer is the joint violation, one cycle through both.
func TestMonitorJointViolation(t *testing.T) {
	path := file(t, "skew.std", writeSkewTrace)
	out := conc("monitor", path, "--quiet")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.True(t, strings.HasPrefix(out.stdout, "violation\nfirst not serializable at trace line 6\n"+
		"no transaction is broken by itself, but these 2 cannot all be atomic (a joint violation):\n"), out.stdout)
	require.Contains(t, out.stdout, "    T2's read of y at line 4 comes before T1's write of y at line 5\n")
	require.Contains(t, out.stdout, "    T1's read of x at line 3 comes before T2's write of x at line 6\n")
	require.True(t, strings.HasSuffix(out.stdout, "\n2 atomic blocks on a cycle of conflicts (--cycles groups every transaction on one)\n"), out.stdout)
	require.NotContains(t, out.stdout, "group 1")
	require.NotContains(t, out.stdout, "broken by itself, in")
	// Both transactions end in the trace: neither reads as open.
	require.Contains(t, out.stdout, "  cycle T2 lines 2-8 → T1 lines 1-7 → back to T2:\n")

	got, o := monitorBlame(t, path)
	require.Equal(t, exitViolation, o.code, o.stderr)
	require.Equal(t, 6, got.First)
	require.Equal(t, 0, *got.NonAtomic)
	require.Empty(t, got.NonAtomicGroups)
	require.Empty(t, got.NonAtomicTxns)
	require.Equal(t, 2, *got.OnCycle)
	require.Len(t, got.Joint, 1)
	j := got.Joint[0]
	require.Len(t, j.Cycle, 2)
	var txns []string
	for _, x := range j.Cycle {
		require.NotNil(t, x.End, "%s@%d ends in the trace", x.Thread, x.Begin)
		txns = append(txns, x.Thread+"@"+strconv.Itoa(x.Begin)+"-"+strconv.Itoa(*x.End))
	}
	slices.Sort(txns)
	require.Equal(t, []string{"T1@1-7", "T2@2-8"}, txns)
	requireCycleConflicts(t, j, readEvents(t, path), false, -1, "write skew")
}

// A thousand broken transactions from the same code are one group, and
// the text stays a screen long; standard input names the path's events
// in full (they are named as the trace streams by, not read again).
func TestMonitorBrokenRepeats(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		x := "x" + strconv.Itoa(i)
		b.WriteString("0|begin|\n0|r(" + x + ")|A.java:2\n1|w(" + x + ")|B.java:7\n0|w(" + x + ")|A.java:3\n0|end|\n")
	}
	out := conc("monitor", file(t, "many.std", b.String()))
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "1000 transactions broken by themselves, in 1 group")
	require.Contains(t, out.stdout, "group 1: 1000 broken transactions, first at line 1, on x0\n")
	require.Contains(t, out.stdout, "    T0's read of x0 at line 2 comes before T1's write of x0 at line 3\n")
	require.Contains(t, out.stdout, "1000 atomic blocks on a cycle of conflicts") // T1's writes are unary
	require.Less(t, strings.Count(out.stdout, "\n"), 12)

	in := concStdin(brokenTrace, "monitor", "-", "--quiet")
	require.Equal(t, exitViolation, in.code, in.stderr)
	require.Equal(t, conc("monitor", file(t, "broken.std", brokenTrace), "--quiet").stdout, in.stdout)
}

// harnessTrace: a harness block (h.java) around two transactions of T1;
// T2's write between them breaks the harness block, not them.
const harnessTrace = `T1|begin|h.java:1
T1|begin|a.java:1
T1|r(x)|a.java:2
T1|end|a.java:3
T2|w(x)|b.java:7
T1|begin|a.java:1
T1|r(x)|a.java:2
T1|end|a.java:3
T1|end|h.java:2
`

// --not-atomic names blocks by their begin's trace line or code location,
// on the command line or in a file: their events become unary, so that
// what they broke is no longer broken, and the trace-level verdict (also
// --cycles') follows.
func TestMonitorNotAtomic(t *testing.T) {
	broken := file(t, "broken.std", brokenTrace)
	harness := file(t, "harness.std", harnessTrace)
	specs := file(t, "specs", "# the harness\n  line:1 # its begin\n\n")
	for _, c := range [][]string{
		{broken, "line:1"}, {broken, "a.java:1"}, {broken, "b.java:9,a.java:1"}, {broken, "@" + specs},
		{harness, "line:1"}, {harness, "h.java:1"}, {harness, " line:1 , line:99"}, {harness, "@" + specs},
	} {
		got, o := monitorBlame(t, c[0], "--not-atomic", c[1])
		require.Equal(t, exitSerializable, o.code, "%v: %s", c, o.stderr)
		require.Equal(t, "serializable", got.Verdict, c)
		require.Equal(t, 0, *got.NonAtomic, c)
		require.Empty(t, got.NonAtomicGroups, c)
		require.Empty(t, got.Joint, c)
		o = conc("monitor", c[0], "--not-atomic", c[1], "--cycles")
		require.Equal(t, exitSerializable, o.code, "%v --cycles: %s", c, o.stderr)
	}
	// Without the flag the harness block is the broken one, and naming
	// the inner blocks instead leaves it broken.
	for _, args := range [][]string{{harness}, {harness, "--not-atomic", "a.java:1"}} {
		got, o := monitorBlame(t, args...)
		require.Equal(t, exitViolation, o.code, o.stderr)
		require.Equal(t, 1, *got.NonAtomic, args)
		require.Equal(t, "T1", got.NonAtomicTxns[0].Thread, args)
		require.Equal(t, 1, got.NonAtomicTxns[0].Begin, args)
	}
}

// A broken transaction that spans most of a long trace (a harness method
// around the whole run) gets a note naming the --not-atomic that looks
// past it; a short trace's never does (TestMonitorBrokenTransaction).
func TestMonitorSpanningNote(t *testing.T) {
	var b strings.Builder
	b.WriteString("T0|begin|h.java:1\nT0|w(x)|h.java:2\n")
	for range 250 {
		b.WriteString("T1|begin|a.java:1\nT1|r(x)|a.java:2\nT1|w(y)|a.java:3\nT1|end|a.java:4\n")
	}
	b.WriteString("T0|r(y)|h.java:3\nT0|end|h.java:4\n")
	path := file(t, "harness.std", b.String())
	page := filepath.Join(t.TempDir(), "h.html")
	out := conc("monitor", path, "--quiet", "--html", page)
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "first not serializable at trace line 1003\n"+
		"note: T0 lines 1-1004 spans most of the trace and is broken by the threads running inside it (a harness method?); "+
		"--not-atomic line:1 treats it as not atomic and shows the transactions inside\n"+
		"1 transaction broken by itself, in 1 group")
	require.Contains(t, readFile(t, page), "<code>--not-atomic line:1</code> treats it as not atomic")

	out = conc("monitor", path, "--quiet", "--not-atomic", "line:1")
	require.Equal(t, exitSerializable, out.code, out.stderr)
	require.Equal(t, "serializable\n", out.stdout)
}

// A bad --not-atomic value is a usage error that names the flag.
func TestMonitorNotAtomicBad(t *testing.T) {
	path := file(t, "broken.std", brokenTrace)
	empty := file(t, "empty", "# nothing here\n\n")
	for _, spec := range []string{"line:x", "line:0", "line:-3", "line:", " ", ",", " , ",
		"@" + filepath.Join(t.TempDir(), "missing"), "@" + empty} {
		o := conc("monitor", path, "--not-atomic", spec)
		require.Equal(t, exitUsage, o.code, "%q: %s", spec, o.stdout)
		require.Contains(t, o.stderr, "--not-atomic", spec)
		require.Equal(t, 1, strings.Count(o.stderr, "\n"), "%q: one line: %s", spec, o.stderr)
		require.Empty(t, o.stdout, spec)
	}
}

// --dot and --html draw the default answer: the broken transaction's
// group (its path through T2), or the joint violation's cycle.
func TestMonitorBrokenDOTAndHTML(t *testing.T) {
	dir := t.TempDir()
	dot, page := filepath.Join(dir, "b.dot"), filepath.Join(dir, "b.html")
	out := conc("monitor", file(t, "broken.std", brokenTrace), "--dot", dot, "--html", page)
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Equal(t, "digraph conflicts {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n"+
		"  t0 [label=\"T1 lines 1-5\"];\n  t1 [label=\"T2 line 3\"];\n"+
		"  t0 -> t1 [label=\"x\"];\n  t1 -> t0 [label=\"x\"];\n}\n", readFile(t, dot))
	html := readFile(t, page)
	require.Contains(t, html, "<h2>Broken transactions</h2>")
	require.Contains(t, html, `<section class="group" data-group="1">`)
	require.Contains(t, html, "Group 1: 1 broken transaction, first at line 1")
	require.Contains(t, html, "transaction T1 lines 1-5: broken by itself")
	require.Contains(t, html, `data-edge="2-3"`)
	require.Contains(t, html, `data-edge="3-4"`)
	require.NotContains(t, html, `data-group="2"`)
	require.NotContains(t, html, "joint")

	out = conc("monitor", file(t, "skew.std", writeSkewTrace), "--dot", dot, "--html", page)
	require.Equal(t, exitViolation, out.code, out.stderr)
	g := readFile(t, dot)
	require.Contains(t, g, `[label="T1 lines 1-`)
	require.Contains(t, g, `[label="T2 lines 2-8"]`)
	require.Equal(t, 2, strings.Count(g, " -> "), g)
	html = readFile(t, page)
	require.Contains(t, html, `<section class="group joint" data-group="1">`)
	require.Contains(t, html, "a joint violation")
	require.Contains(t, html, `data-edge="4-5"`)
	require.Contains(t, html, `data-edge="3-6"`)
	require.NotContains(t, html, "broken by itself:")
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// --not-atomic "" is refused (the flag given without a SPEC); a list
// names its bad SPEC once; SPECs that name no begin are noted on standard
// error, so that a typo does not pass unseen.
func TestMonitorNotAtomicGivenEmptyAndUnused(t *testing.T) {
	path := file(t, "skew.std", writeSkewTrace)
	out := conc("monitor", path, "--not-atomic", "")
	require.Equal(t, exitUsage, out.code)
	require.Contains(t, out.stderr, `--not-atomic "": no SPEC`)
	out = conc("monitor", path, "--not-atomic", "line:2,line:x")
	require.Equal(t, exitUsage, out.code)
	require.Contains(t, out.stderr, `--not-atomic "line:2,line:x": want line:N with N a trace line (1 or more), not "line:x"`)
	out = conc("monitor", path, "--not-atomic", "line:2,line:5,Foo.java:9", "--quiet")
	require.Equal(t, exitSerializable, out.code, out.stdout)
	require.Contains(t, out.stderr, "note: --not-atomic names no begin at Foo.java:9, line:5\n")
}

// With thousands of transactions open at once the tracker's budget runs
// out: the text and JSON say the broken transactions were not decided,
// and the verdict, first and the count on a cycle are still given.
func TestMonitorBlameNotDecided(t *testing.T) {
	var b strings.Builder
	const n = 12000
	for i := range n {
		fmt.Fprintf(&b, "T%d|begin|1\nT%[1]d|r(x)|2\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, "T%d|w(x)|3\nT%[1]d|end|4\n", i)
	}
	path := file(t, "open.std", b.String())
	out := conc("monitor", path, "--quiet")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "first not serializable at trace line 24003\n")
	require.Contains(t, out.stdout, "broken transactions not decided: too many transactions open at once")
	require.Contains(t, out.stdout, "12000 atomic blocks on a cycle of conflicts")
	got, o := monitorBlame(t, path)
	require.Equal(t, exitViolation, o.code)
	require.Equal(t, 24003, got.First)
	require.Equal(t, n, *got.OnCycle)
	require.Nil(t, got.NonAtomic)
	require.Empty(t, got.NonAtomicGroups)
	require.Contains(t, got.NonAtomicUnknown, "too many transactions open at once")
}
