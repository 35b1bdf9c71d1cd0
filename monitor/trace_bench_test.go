package monitor

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/monitor/atomicity"
	"github.com/conc-dev/conc/trace"
)

// benchGen is the synthetic workload of the benchmarks: 8 threads, 10^4
// variables, 16 locks, mostly lock-protected transactions with a few
// unprotected accesses (so violations keep appearing).
var benchGen = trace.GenOptions{Seed: 1, Threads: 8, Vars: 10000, Locks: 16, TxnLen: 8,
	Unprotected: 0.05, Unary: 0.3, Nested: 0.1, Writes: 0.3, Hot: 8}

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
	o := benchGen
	o.Events = n
	return genEvents(o)
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

// BenchmarkCheckTrace: events per second of CheckTrace end to end, as
// `conc monitor --lock-edges` runs it: the STD text of the benchmark trace
// is parsed on a second goroutine while the monitor steps the batches.
// The text (10^6 events) is read ten times over, one 10^7-event trace.
func BenchmarkCheckTrace(b *testing.B) { benchCheckTrace(b, false) }

// BenchmarkCheckTraceBlame is BenchmarkCheckTrace as `conc monitor
// --lock-edges` runs by default: with the atomicity tracker beside the
// conflict graph (which transactions are broken by themselves).
func BenchmarkCheckTraceBlame(b *testing.B) { benchCheckTrace(b, true) }

func benchCheckTrace(b *testing.B, blame bool) {
	o := benchGen
	o.Events = 1_000_000
	var text bytes.Buffer
	_, err := trace.NewGen(o).WriteTo(&text)
	require.NoError(b, err)
	const copies = 10
	b.SetBytes(int64(copies * text.Len()))
	var events int64
	for b.Loop() {
		parts := make([]io.Reader, copies)
		for i := range parts {
			parts[i] = bytes.NewReader(text.Bytes())
		}
		r, err := trace.NewReader(io.MultiReader(parts...), "bench.std", trace.Options{})
		require.NoError(b, err)
		res, err := CheckTrace(context.Background(), r, TraceOptions{LockEdges: true, MaxViolations: 1, Blame: blame, OnBroken: func(*atomicity.Broken) {}})
		require.NoError(b, err)
		events = res.Stats.Events
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
