package main

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/trace"
)

// TestMonitorGroupsElidedInvariants (--cycles): TestMonitorGroupsInvariants lists
// whole cycles (--max-cycle 1000); a cycle longer than --max-cycle is
// elided (since thread entries no group of the six JGF traces is at the
// default 8, docs/traces.md, but random traces under 2 often are), and the
// JSON's promise is then docs/spec.md §5's (JSON):
// every listed conflict holds but the one into cycle[elided_at] (the way
// back into cycle[0] when elided_at is the cycle's length), and the counts
// still add up. Checked on random traces under --max-cycle 2, against the
// trace's own events.
func TestMonitorGroupsElidedInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	dir := t.TempDir()
	elided := 0
	n := testflag.N(100, 2000)
	for i := range n {
		o := trace.GenOptions{Seed: uint64(1000 + i), Events: int64(20 + rng.IntN(60)), Threads: 3 + rng.IntN(3),
			Vars: 2 + rng.IntN(4), Locks: rng.IntN(2), TxnLen: 1 + rng.IntN(4), Unprotected: rng.Float64() * 0.6,
			Unary: rng.Float64() * 0.5, Writes: 0.2 + rng.Float64()*0.6, Fork: rng.IntN(2) == 0}
		path := genTraceFile(t, dir, i, o)
		events := readEvents(t, path)
		lockEdges := rng.IntN(2) == 0
		args := []string{"monitor", path, "--cycles", "--format", "json", "--max-cycle", "2"}
		if lockEdges {
			args = append(args, "--lock-edges")
		}
		got := monitorGroups(t, args)
		ctx := fmt.Sprintf("%+v lock edges %v", o, lockEdges)
		elided += checkElidedGroups(t, got, events, lockEdges, ctx)
	}
	require.Greater(t, elided, n/10, "the traces should have long cycles often")
}

// checkElidedGroups checks got's groups and returns how many are elided.
func checkElidedGroups(t *testing.T, got groupsJSON, events map[int]namedTraceEvent, lockEdges bool, ctx string) int {
	t.Helper()
	sum, elided := 0, 0
	for _, g := range got.Groups {
		sum += g.Count
		k := len(g.Cycle)
		require.GreaterOrEqual(t, k, 1, ctx)
		skip := -1 // the index of the transaction whose way in is not listed
		if g.Elided > 0 {
			elided++
			require.True(t, g.ElidedAt >= 1 && g.ElidedAt <= k, "elided_at %d of %d\n%s", g.ElidedAt, k, ctx)
			skip = g.ElidedAt % k
		} else {
			require.GreaterOrEqual(t, k, 2, ctx)
		}
		for _, x := range g.Cycle {
			require.NotEmpty(t, x.Events, ctx)
			for _, e := range x.Events {
				require.Equal(t, x.Thread, events[e.Line].thread, ctx)
				require.True(t, e.Line >= x.Begin && (x.End == nil || e.Line <= *x.End), ctx)
			}
		}
		requireCycleConflicts(t, g, events, lockEdges, skip, ctx)
	}
	require.Equal(t, got.Violating, sum, ctx)
	return elided
}
