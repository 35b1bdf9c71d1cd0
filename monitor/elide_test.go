package monitor

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// A ring of ten transactions, each with an edge into the one before (T(i+1)
// writes x(i+1) before Ti reads it), listed with MaxCycle 4: every
// violation keeps the two ends of its cycle around an elided middle. On
// each side of ElidedAt the listing is a chain (two events of one
// transaction, or an earlier event that conflicts with a later one), its
// ends are v's neighbours on the ring, and the transactions listed besides
// v's plus Elided are the ring's nine others.
func TestTraceMonitorElidesLongCycles(t *testing.T) {
	const n = 10
	var evs []trace.Event
	add := func(th int32, op model.Op, target int32) {
		evs = append(evs, trace.Event{Thread: th, Op: op, Target: target, Loc: -1, Line: int64(len(evs) + 1)})
	}
	for _, op := range []model.Op{model.OpBegin, model.OpWrite, model.OpRead, model.OpEnd} {
		for i := range int32(n) {
			switch op {
			case model.OpWrite:
				add(i, op, i)
			case model.OpRead:
				add(i, op, (i+1)%n)
			default:
				add(i, op, -1)
			}
		}
	}
	m := NewTraceMonitor(TraceOptions{MaxCycle: 4})
	m.StepAll(evs, false)
	res := m.Finish()
	require.Len(t, res.Violations, n)
	conflict := func(a, b CycleEvent) bool {
		ea, eb := evs[a.Line-1], evs[b.Line-1]
		return a.Line < b.Line && ea.Target == eb.Target && (ea.Op == model.OpWrite || eb.Op == model.OpWrite)
	}
	for _, v := range res.Violations {
		require.Positive(t, v.Elided, "T%d", v.Thread)
		require.LessOrEqual(t, len(v.Cycle), 2*4, "T%d", v.Thread)
		others := map[int32]bool{}
		for k, s := range v.Cycle {
			require.NotEqual(t, v.Thread, s.Thread, "T%d: v's own events are not listed", v.Thread)
			others[s.Thread] = true
			if k+1 < len(v.Cycle) && k+1 != v.ElidedAt {
				next := v.Cycle[k+1]
				require.True(t, s.Thread == next.Thread || conflict(s, next), "T%d: step %d %+v to %+v", v.Thread, k, s, next)
			}
		}
		require.Equal(t, n-1, len(others)+v.Elided, "T%d: %+v elided %d at %d", v.Thread, v.Cycle, v.Elided, v.ElidedAt)
		// The listing starts at v's successor on the ring unless the elided
		// middle comes first, and ends at its predecessor unless it comes
		// last.
		if v.ElidedAt > 0 {
			require.Equal(t, (v.Thread+n-1)%n, v.Cycle[0].Thread, "T%d: the cycle leaves v", v.Thread)
		}
		if v.ElidedAt < len(v.Cycle) {
			require.Equal(t, (v.Thread+1)%n, v.Cycle[len(v.Cycle)-1].Thread, "T%d: the cycle closes into v", v.Thread)
		}
	}
}
