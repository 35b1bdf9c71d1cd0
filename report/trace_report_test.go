package report

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
)

// BuildTrace names the cycles' threads, keeps an open transaction's end
// nil, and copies the steps the driver hands it in one reused slice.
func TestBuildTraceResolvesCycles(t *testing.T) {
	cycles := []TraceCycle{
		{Thread: 1, Begin: 3, End: 9, Out: 4, In: 8, Steps: []CycleStep{{0, 5, 5}, {0, 6, 6}}},
		{Thread: 0, Begin: 5, End: -1, Out: 5, In: 5, Steps: []CycleStep{{1, 8, 3}}, Elided: 2, ElidedAt: 1},
	}
	a := TraceAnswer{Verdict: engines.Violation, Threads: 2, Vars: 1, Locks: 0, Names: []string{"T0", "T1"},
		First: 8, Count: 7, Stats: engines.Stats{States: 4, Events: 12}, Len: len(cycles),
		Cycles: func(yield func(TraceCycle) bool) {
			var buf []CycleStep
			for _, c := range cycles {
				buf = append(buf[:0], c.Steps...)
				c.Steps = buf
				if !yield(c) {
					return
				}
				clear(buf) // the driver reuses its slice
			}
		}}
	r := BuildTrace(a)
	require.Equal(t, "violation", r.Verdict)
	require.Equal(t, "monitor", r.Engine)
	require.Equal(t, "straight-line", r.Class)
	require.Equal(t, []int{2, 1, 0}, []int{r.Threads, r.Vars, r.Locks})
	require.Equal(t, 8, r.First)
	require.Equal(t, int64(7), *r.Violating)
	require.Equal(t, a.Stats, r.Stats)
	require.Empty(t, r.Reason)
	nine := 9
	require.Equal(t, []Violation{
		{Thread: "T1", Begin: 3, End: &nine, Out: 4, In: 8, Cycle: []TraceStep{{"T0", 5, 5}, {"T0", 6, 6}}},
		{Thread: "T0", Begin: 5, Out: 5, In: 5, Cycle: []TraceStep{{"T1", 8, 3}}, Elided: 2, ElidedAt: 1},
	}, r.Violations)
}

// An unread end is unknown with the timeout's reason; a trace without
// events is serializable with the trace's note.
func TestBuildTraceReasons(t *testing.T) {
	r := BuildTrace(TraceAnswer{Verdict: engines.Unknown, Threads: 1, Names: []string{"T0"}})
	require.Equal(t, "unknown", r.Verdict)
	require.Equal(t, "timeout: the trace was not read to its end (--timeout)", r.Reason)
	require.Empty(t, r.Violations)
	r = BuildTrace(TraceAnswer{Verdict: engines.Serializable})
	require.Equal(t, "serializable", r.Verdict)
	require.Equal(t, "the trace has no events", r.Reason)
	require.Equal(t, int64(0), *r.Violating)
}
