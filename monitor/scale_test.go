package monitor

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// manyReadersTrace: n threads each begin and read x, then each in turn
// writes x and ends. Every writer's transaction closes a cycle with the
// component of the earlier writers, and more than 64 transactions are
// open at once, so most have no reachability slot.
func manyReadersTrace(n int) []trace.Event {
	var evs []trace.Event
	add := func(t int, op model.Op) {
		evs = append(evs, trace.Event{Thread: int32(t), Op: op, Target: 0, Loc: -1, Line: int64(len(evs) + 1)})
	}
	for i := range n {
		add(i, model.OpBegin)
		add(i, model.OpRead)
	}
	for i := range n {
		add(i, model.OpWrite)
		add(i, model.OpEnd)
	}
	return evs
}

// searchSteps runs the monitor over evs and returns the edges its
// searches looked at and its result.
func searchSteps(evs []trace.Event) (int64, TraceResult) {
	m := NewTraceMonitor(TraceOptions{})
	m.StepAll(evs, false)
	return m.search.steps, m.Finish()
}

// TestTraceMonitorManyThreadsLinear: on manyReadersTrace the searches'
// work grows about linearly with the threads (4 times the threads, less
// than 8 times the steps), and every transaction is still found on a cycle.
func TestTraceMonitorManyThreadsLinear(t *testing.T) {
	small, resSmall := searchSteps(manyReadersTrace(2000))
	large, resLarge := searchSteps(manyReadersTrace(8000))
	require.EqualValues(t, 2000, resSmall.Count)
	require.EqualValues(t, 8000, resLarge.Count)
	require.Less(t, large, 8*small, "steps: %d at 2,000 threads, %d at 8,000", small, large)
}

// TestTraceMonitorManyReadersPrune: while n threads' open transactions
// read one variable, pruning the reads (none of which is garbage) looks
// at a number of them linear in n, not one pass per read.
func TestTraceMonitorManyReadersPrune(t *testing.T) {
	const n = 8000
	m := NewTraceMonitor(TraceOptions{})
	m.StepAll(manyReadersTrace(n)[:2*n], false)
	require.Less(t, m.readScans, int64(4*n))
}

// TestTraceMonitorManyEntryLists: a thread entered from thousands of
// threads keeps one entry list per thread, found by its index.
func TestTraceMonitorManyEntryLists(t *testing.T) {
	const n = 3000
	m := NewTraceMonitor(TraceOptions{})
	m.StepAll(manyReadersTrace(n), false)
	th := &m.threads[0]
	require.Len(t, th.entryAt, len(th.entries))
	require.Greater(t, len(th.entries), n/2)
	for i, l := range th.entries {
		require.EqualValues(t, i, th.entryAt[l.from])
	}
}

// TestTraceMonitorManyReadersFind: finding a thread's read among those of
// one variable since its last write does not scan them: 4 times the
// readers, less than 8 times the reads looked at.
func TestTraceMonitorManyReadersFind(t *testing.T) {
	scans := func(n int) int64 {
		m := NewTraceMonitor(TraceOptions{})
		m.StepAll(manyReadersTrace(n), false)
		require.EqualValues(t, n, m.Finish().Count)
		return m.findScans
	}
	small, large := scans(5000), scans(20000)
	require.Less(t, large, 8*small, "reads looked at: %d for 5,000 readers, %d for 20,000", small, large)
}
