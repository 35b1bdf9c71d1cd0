package monitor

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// A read recorded by a transaction that completed as garbage names its
// node after the node has been recycled for the same thread's next
// transaction. The next transaction's own read of the variable must then
// be the one the cycle reports (line 8), not the stale one (line 2), which
// belongs to a transaction that is on no cycle.
func TestTraceMonitorStaleReadOfRecycledNode(t *testing.T) {
	const x, y = 0, 1
	ev := func(line int64, thread int32, op model.Op, target int32) trace.Event {
		return trace.Event{Thread: thread, Op: op, Target: target, Loc: -1, Line: line}
	}
	evs := []trace.Event{
		ev(1, 0, model.OpBegin, -1),
		ev(2, 0, model.OpRead, x),
		ev(3, 0, model.OpEnd, -1), // garbage: its node goes back to the arena
		ev(4, 0, model.OpBegin, -1),
		ev(5, 1, model.OpBegin, -1),
		ev(6, 1, model.OpWrite, y),
		ev(7, 0, model.OpRead, y), // 6 -> 7: T1's transaction precedes T0's
		ev(8, 0, model.OpRead, x),
		ev(9, 1, model.OpWrite, x), // 8 -> 9 closes the cycle
		ev(10, 0, model.OpEnd, -1),
		ev(11, 1, model.OpEnd, -1),
	}
	for _, cfg := range naiveConfigs {
		res := runMonitor(evs, TraceOptions{}, cfg.gcMin, cfg.free)
		require.Equal(t, int64(9), res.First)
		require.Len(t, res.Violations, 2)
		byBegin := map[int64]TraceViolation{}
		for _, v := range res.Violations {
			byBegin[v.Begin] = v
		}
		require.Equal(t, []CycleEvent{{1, 9, 5}, {1, 6, 5}}, byBegin[4].Cycle, "T0's transaction: T1's enters at 9, leaves at 6")
		require.Equal(t, []CycleEvent{{0, 7, 4}, {0, 8, 4}}, byBegin[5].Cycle, "T1's transaction: T0's enters at 7, leaves at its own read at 8")
		require.Equal(t, [2]int64{8, 7}, [2]int64{byBegin[4].Out, byBegin[4].In}, "T0's transaction: the cycle leaves at its read of x, comes back at its read of y")
		require.Equal(t, [2]int64{6, 9}, [2]int64{byBegin[5].Out, byBegin[5].In}, "T1's transaction: leaves at its write of y, comes back at its write of x")
	}
}
