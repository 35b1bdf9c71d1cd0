package monitor

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/internal/montest"
	"github.com/conc-dev/conc/trace"
)

// longRunTrace: T0 opens a transaction and writes a; T1 reads a, then makes
// run unary reads of variables of its own, then writes b, which T0 reads
// before it ends. Every transaction of T1 lies on a cycle T0 → (T1's read
// of a) ⇒ … ⇒ (T1's write of b) → T0, which program order makes three
// transactions long; a search back through the run one transaction at a
// time runs out of budget inside it, which the entries' jumps avoid.
func longRunTrace(run int) []trace.Event {
	var evs []trace.Event
	add := func(th int32, op model.Op, target int32) {
		evs = append(evs, trace.Event{Thread: th, Op: op, Target: target, Loc: -1, Line: int64(len(evs) + 1)})
	}
	const a, b = 0, 1
	add(0, model.OpBegin, -1)
	add(0, model.OpWrite, a)
	add(1, model.OpRead, a)
	for i := range int32(run) {
		add(1, model.OpRead, 2+i)
	}
	add(1, model.OpWrite, b)
	add(0, model.OpRead, b)
	add(0, model.OpEnd, -1)
	return evs
}

// TestTraceMonitorListsLongRunsWhole: with the default MaxCycle, every
// transaction of longRunTrace is listed with a whole cycle (none elided),
// and each cycle is a real one of the full conflict graph; before thread
// entries (entries.go) the transactions deep in the run were
// elided.
func TestTraceMonitorListsLongRunsWhole(t *testing.T) {
	const run = 200
	evs := longRunTrace(run)
	want := naiveCheck(evs, false)
	for k, cfg := range naiveConfigs {
		got := runMonitor(evs, TraceOptions{}, cfg.gcMin, cfg.free)
		ctx := fmt.Sprintf("config %d", k)
		require.Empty(t, naiveMismatch(want, got), ctx)
		require.Len(t, got.Violations, run+3, ctx) // T0, the read of a, the run, the write of b
		for _, v := range got.Violations {
			checkReportedCycle(t, want, v, false, fmt.Sprintf("%s: T%d at line %d: %+v", ctx, v.Thread, v.Begin, v))
			require.LessOrEqual(t, len(v.Cycle), 4, ctx) // two transactions, two events each at most
		}
	}
}

// TestTraceMonitorJumpsAgainstNaive: on random traces with long unary runs
// and a listing bound of 3 transactions, every cycle listed whole is a real
// simple cycle of the full conflict graph, in every collector
// configuration, with and without lock edges. And where every open
// transaction has a reachability slot (the searches that jump program
// order), of the transactions whose shortest cycle in the full graph fits
// the bound when they first lie on one, under a fifth are elided: with
// CONC_LONG=1 15 %, and 21 % before thread entries, which fails; the quick
// size does not tell the two apart (11 % and 15 %), which
// TestTraceMonitorListsLongRunsWhole does. The rest are not all avoidable:
// the monitor keeps a variable's last write only, so where the full graph
// has w(x)@46 → r(x)@48 across threads and w(x)@47 between them in the
// writer's thread, the monitor's shortest cycle takes the hop through 47,
// one transaction more.
func TestTraceMonitorJumpsAgainstNaive(t *testing.T) {
	const maxCycle = 3
	rng := rand.New(rand.NewPCG(15, 3))
	g := montest.GenRange{Events: [2]int{60, 200}, Threads: [2]int{2, 4}, Vars: [2]int{3, 20}, TxnLen: [2]int{1, 8},
		Locks: 3, Hot: 3, Unprotected: 0.9, Nested: 0.2}
	fits, missed := 0, 0
	for i := range testflag.N(20, 400) {
		o := g.Draw(rng, uint64(i))
		o.Unary = 0.5 + rng.Float64()*0.5
		evs := montest.GenEvents(o)
		for _, lockEdges := range []bool{false, true} {
			want := naiveCheck(evs, lockEdges)
			born := edgeLines(evs, want, lockEdges)
			for k, cfg := range naiveConfigs {
				got := runMonitor(evs, TraceOptions{LockEdges: lockEdges, MaxCycle: maxCycle}, cfg.gcMin, cfg.free)
				ctx := fmt.Sprintf("seed %d lockEdges=%v config %d opts=%+v\n%s", o.Seed, lockEdges, k, o, montest.FmtTrace(evs))
				require.Empty(t, naiveMismatch(want, got), ctx)
				for _, v := range got.Violations {
					if v.Elided == 0 {
						checkReportedCycle(t, want, v, lockEdges, ctx)
					}
					if cfg.free == ^uint64(0) && firstCycle(born, want.txnOf[v.Begin])-1 <= maxCycle {
						fits++
						if v.Elided > 0 {
							missed++
						}
					}
				}
			}
		}
	}
	require.Greater(t, fits, 300)
	t.Logf("%d of %d elided", missed, fits)
	require.Less(t, missed*5, fits, "%d of %d elided", missed, fits)
}

// edgeLines is the full conflict graph of evs with, per edge, the line at
// which it appears (0: no edge).
func edgeLines(evs []trace.Event, want naiveResult, lockEdges bool) [][]int64 {
	n := len(want.txns)
	born := make([][]int64, n)
	for i := range born {
		born[i] = make([]int64, n)
	}
	for j, b := range evs {
		tb, ok := want.txnOf[b.Line]
		if !ok {
			continue
		}
		for _, a := range evs[:j] {
			ta, ok := want.txnOf[a.Line]
			if ok && ta != tb && born[ta][tb] == 0 && traceNaiveConflict(a, b, lockEdges) {
				born[ta][tb] = b.Line
			}
		}
	}
	return born
}

// firstCycle is the number of transactions on a shortest cycle through i
// in the conflict graph of the shortest prefix that puts i on a cycle:
// the cycle a listing can show when i is found.
func firstCycle(born [][]int64, i int) int {
	var lines []int64
	for _, row := range born {
		for _, l := range row {
			if l > 0 {
				lines = append(lines, l)
			}
		}
	}
	slices.Sort(lines)
	for _, l := range lines {
		if k := shortestCycle(born, i, l); k > 0 {
			return k
		}
	}
	return len(born) + 1
}

// shortestCycle is the number of transactions on a shortest cycle through
// i over the edges that appear by line upTo, or 0 if none.
func shortestCycle(born [][]int64, i int, upTo int64) int {
	dist := make([]int, len(born))
	for k := range dist {
		dist[k] = -1
	}
	dist[i] = 0
	queue := []int{i}
	for q := 0; q < len(queue); q++ {
		u := queue[q]
		for w, l := range born[u] {
			switch {
			case l == 0 || l > upTo:
			case w == i:
				return dist[u] + 1
			case dist[w] < 0:
				dist[w] = dist[u] + 1
				queue = append(queue, w)
			}
		}
	}
	return 0
}
