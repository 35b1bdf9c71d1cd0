package monitor

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/monitor/internal/montest"
	"github.com/conc-dev/conc/trace"
)

// replay steps m through copies of evs until n events have gone by: the
// generator ends every transaction and releases every lock, so copies
// concatenate into one longer valid trace. Each copy's lines are shifted
// in place, a batch at a time just before it is stepped (as a reader
// fills a batch), so the events stream from memory once per copy.
// replay changes evs.
func replay(m *TraceMonitor, evs []trace.Event, n int64) {
	const batch = 4096
	shift := int64(0)
	for done := int64(0); done < n; done += int64(len(evs)) {
		for i := 0; i < len(evs); i += batch {
			b := evs[i:min(i+batch, len(evs))]
			for j := range b {
				b[j].Line += shift
			}
			m.StepAll(b, false)
		}
		shift = int64(len(evs))
	}
}

func benchEvents(n int64) []trace.Event {
	o := montest.BenchGen
	o.Events = n
	return montest.GenEvents(o)
}

// BenchmarkTraceMonitor: events per second of the monitor alone (the events
// are in memory), over 10^7 events.
func BenchmarkTraceMonitor(b *testing.B) {
	evs := benchEvents(1_000_000)
	const n = 10_000_000
	b.ResetTimer()
	for b.Loop() {
		m := NewTraceMonitor(TraceOptions{LockEdges: true, MaxViolations: 1})
		replay(m, evs, n)
		m.Finish()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// The graph the monitor keeps does not grow with the trace: ten times the
// events, about the same largest graph.
func TestTraceMonitorMemoryFlat(t *testing.T) {
	evs := benchEvents(100_000)
	live := func(n int64) int64 {
		m := NewTraceMonitor(TraceOptions{LockEdges: true, MaxViolations: 1})
		replay(m, evs, n)
		res := m.Finish()
		require.True(t, res.Violation)
		return res.Stats.MaxLive
	}
	small, big := live(200_000), live(2_000_000)
	t.Logf("largest graph: %d transactions after 2*10^5 events, %d after 2*10^6", small, big)
	require.Less(t, big, 4*small, "small %d big %d", small, big)
	// Garbage is let go the moment no open transaction reaches it, so the
	// graph holds a few dozen transactions, not the ~2·10^4 that would
	// pile up between collections.
	require.Less(t, big, int64(1000), "garbage kept until a collection?")
}
