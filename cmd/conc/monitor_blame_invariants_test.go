package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// TestMonitorBlameInvariants: on every trace excerpt of testdata/traces
// and on random traces (trace.Gen), with and without lock edges, the
// default answer agrees with --cycles' (checkBlame) and each broken
// transaction's path is one the trace has (checkBrokenPath).
func TestMonitorBlameInvariants(t *testing.T) {
	dir := "../../testdata/traces"
	for _, x := range traceExcerpts(t, dir) {
		path := filepath.Join(dir, x.file)
		events := readEvents(t, path)
		for _, lockEdges := range []bool{false, true} {
			checkBlame(t, path, events, lockEdges, fmt.Sprintf("%s lock edges %v", x.name, lockEdges))
		}
	}
	rng := rand.New(rand.NewPCG(25, 25))
	tmp := t.TempDir()
	broken, joint := 0, 0
	n := testflag.N(300, 3000)
	for i := range n {
		o := trace.GenOptions{Seed: uint64(5000 + i), Events: int64(5 + rng.IntN(50)), Threads: 2 + rng.IntN(3),
			Vars: 1 + rng.IntN(4), Locks: rng.IntN(3), TxnLen: 1 + rng.IntN(4), Unprotected: rng.Float64() * 0.6,
			Unary: rng.Float64() * 0.5, Nested: rng.Float64() * 0.3, Writes: 0.2 + rng.Float64()*0.6, Fork: rng.IntN(2) == 0}
		path := genTraceFile(t, tmp, i, o)
		events := readEvents(t, path)
		for _, lockEdges := range []bool{false, true} {
			got := checkBlame(t, path, events, lockEdges, fmt.Sprintf("%+v lock edges %v", o, lockEdges))
			broken += *got.NonAtomic
			joint += len(got.Joint)
		}
	}
	t.Logf("%d traces: %d broken transactions, %d joint violations", n, broken, joint)
	require.Greater(t, broken, n/2, "the traces should have broken transactions often")
	require.Positive(t, joint, "and joint violations sometimes")
}

// checkBlame runs the default answer and --cycles' on path: the same
// verdict and first line; on_cycle is the number of --cycles' violating
// transactions that are atomic blocks, non_atomic no more; every broken transaction is on a cycle (one of --cycles'
// violations), lies in the group of its signature, which counts it, and
// has a path the trace has, and they are those the definition finds
// (naiveBroken, on short traces); a joint violation only when none is
// broken.
func checkBlame(t *testing.T, path string, events map[int]namedTraceEvent, lockEdges bool, ctx string) blameJSON {
	t.Helper()
	args := []string{path}
	if lockEdges {
		args = append(args, "--lock-edges")
	}
	got, o := monitorBlame(t, args...)
	cyc, oc := monitorBlame(t, append(args, "--cycles", "--max-cycle", "1000")...)
	require.Equal(t, oc.code, o.code, ctx)
	require.Equal(t, cyc.Verdict, got.Verdict, ctx)
	require.Equal(t, cyc.First, got.First, ctx)
	require.Equal(t, cyc.blocks(), *got.OnCycle, ctx)
	require.LessOrEqual(t, *got.NonAtomic, *got.OnCycle, ctx)
	require.Len(t, got.NonAtomicTxns, *got.NonAtomic, ctx)
	onCycle := map[string]bool{}
	for _, v := range cyc.Violations {
		onCycle[fmt.Sprint(v.Thread, "@", v.Begin)] = true
	}
	listed := map[string]bool{}
	for _, b := range got.NonAtomicTxns {
		require.True(t, onCycle[fmt.Sprint(b.Thread, "@", b.Begin)], "%s: %s's transaction at line %d is on no cycle", ctx, b.Thread, b.Begin)
		checkBrokenPath(t, b, events, lockEdges, ctx)
		listed[fmt.Sprint(b.Thread, "@", b.Begin)] = true
	}
	if len(events) <= 200 {
		require.Equal(t, naiveBroken(events, lockEdges), listed, "%s: the broken transactions, by the definition", ctx)
	}
	checkBrokenGroups(t, got, ctx)
	if *got.NonAtomic > 0 || got.Verdict != "violation" {
		require.Empty(t, got.Joint, ctx)
	} else {
		require.Len(t, got.Joint, 1, ctx)
		requireCycleConflicts(t, got.Joint[0], events, lockEdges, -1, ctx)
	}
	return got
}

// checkBrokenGroups: transactions share a group exactly when their
// signatures (where the path leaves, what interrupts, where it comes back:
// op and LOC, or op and target) agree; each group counts its transactions
// and shows its first begun, in order of first.
func checkBrokenGroups(t *testing.T, got blameJSON, ctx string) {
	t.Helper()
	groupOf := map[string]int{}
	count := make([]int, len(got.NonAtomicGroups))
	first := make([]brokenJSON, len(got.NonAtomicGroups))
	for _, b := range got.NonAtomicTxns {
		require.True(t, b.Group >= 1 && b.Group <= len(count), ctx)
		p := b.Path
		key := siteKey(p[0].From) + " | " + siteKey(p[len(p)-1].From) + " | " + siteKey(p[len(p)-1].To)
		if k, ok := groupOf[key]; ok {
			require.Equal(t, k, b.Group, "%s: %s", ctx, key)
		}
		groupOf[key] = b.Group
		if count[b.Group-1] == 0 || b.Begin < first[b.Group-1].Begin {
			first[b.Group-1] = b
		}
		count[b.Group-1]++
	}
	require.Len(t, groupOf, len(got.NonAtomicGroups), "%s: a group per signature", ctx)
	for k, g := range got.NonAtomicGroups {
		require.Equal(t, count[k], g.Count, ctx)
		require.Equal(t, first[k].Begin, g.First, ctx)
		require.Equal(t, first[k].Thread, g.Cycle[0].Thread, ctx)
		require.Equal(t, first[k].Begin, g.Cycle[0].Begin, ctx)
		require.Equal(t, len(first[k].Path), len(g.Cycle), "%s: the example is the transaction and a stretch per other thread", ctx)
		if k > 0 {
			require.LessOrEqual(t, got.NonAtomicGroups[k-1].First, g.First, ctx)
		}
	}
}

// siteKey is a path event's part of a signature.
func siteKey(e pathEventJSON) string {
	if e.Loc != "" {
		return e.Op + "@" + e.Loc
	}
	return e.Op + " " + e.Target
}

// checkBrokenPath: b's path leaves b at one of its events and comes back
// at a later one; each hop joins two events of different threads, the
// first before and conflicting with the second (docs/spec.md §1); between
// two hops it stays in one other thread, in program order; and every event
// is the trace's (thread, op, target at its line).
func checkBrokenPath(t *testing.T, b brokenJSON, events map[int]namedTraceEvent, lockEdges bool, ctx string) {
	t.Helper()
	p := b.Path
	require.GreaterOrEqual(t, len(p), 2, ctx)
	in := func(e pathEventJSON) bool {
		return e.Thread == b.Thread && e.Line > b.Begin && (b.End == nil || e.Line < *b.End)
	}
	leave, back := p[0].From, p[len(p)-1].To
	require.True(t, in(leave) && in(back) && leave.Line < back.Line, "%s: path %+v of %+v", ctx, p, b)
	for i, h := range p {
		for _, e := range []pathEventJSON{h.From, h.To} {
			ev := events[e.Line]
			require.Equal(t, ev.thread, e.Thread, ctx)
			require.Equal(t, trace.OpName[ev.Op], e.Op, ctx)
			if ev.Op != model.OpBegin && ev.Op != model.OpEnd {
				require.Equal(t, ev.target, e.Target, ctx)
			}
		}
		a, c := events[h.From.Line], events[h.To.Line]
		require.True(t, h.From.Thread != h.To.Thread && h.From.Line < h.To.Line && specConflict(a.Event, c.Event, lockEdges),
			"%s: hop %d, lines %d and %d: no conflict", ctx, i, h.From.Line, h.To.Line)
		if i > 0 {
			prev := p[i-1].To
			require.True(t, prev.Thread == h.From.Thread && prev.Thread != b.Thread && prev.Line <= h.From.Line,
				"%s: hops %d and %d: lines %d and %d not in program order of another thread", ctx, i-1, i, prev.Line, h.From.Line)
		}
	}
}

// naiveBroken are the transactions (thread@begin) of a trace broken by
// themselves by docs/spec.md §1's definition, computed the slow way: tx
// is broken when an event e of another thread has tx's begin → e → e' for
// an event e' of tx, → being the transitive closure of program order and
// the conflicts (specConflict) from an earlier event to a later one.
func naiveBroken(events map[int]namedTraceEvent, lockEdges bool) map[string]bool {
	lines := make([]int, 0, len(events))
	for l := range events {
		lines = append(lines, l)
	}
	sortInts(lines)
	n := len(lines)
	reach := make([][]bool, n) // reach[i][j]: event i → event j
	for i := n - 1; i >= 0; i-- {
		reach[i] = make([]bool, n)
		for j := i + 1; j < n; j++ {
			if reach[i][j] || !specConflict(events[lines[i]].Event, events[lines[j]].Event, lockEdges) {
				continue
			}
			for k := j; k < n; k++ {
				reach[i][k] = reach[i][k] || k == j || reach[j][k]
			}
		}
	}
	broken := map[string]bool{}
	for b, l := range lines {
		begin := events[l]
		if begin.Op != model.OpBegin {
			continue
		}
		end := b + 1 // past the block's end (the reader keeps outermost blocks only), or the trace's
		for end < n && !(events[lines[end]].thread == begin.thread && events[lines[end]].Op == model.OpEnd) {
			end++
		}
		for e := b + 1; e < n; e++ {
			if events[lines[e]].thread == begin.thread || !reach[b][e] {
				continue
			}
			for k := e + 1; k <= min(end, n-1); k++ {
				if events[lines[k]].thread == begin.thread && reach[e][k] {
					broken[fmt.Sprint(begin.thread, "@", l)] = true
				}
			}
		}
	}
	return broken
}
