package pass

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/monitor/atomicity"
	"github.com/conc-dev/conc/monitor/internal/montest"
	"github.com/conc-dev/conc/trace"
)

// BenchmarkCheckTrace: events per second of Check end to end, as
// `conc monitor --lock-edges` runs it: the STD text of the benchmark trace
// is parsed on a second goroutine while the monitor steps the batches.
// The text (10^6 events) is read ten times over, one 10^7-event trace.
func BenchmarkCheckTrace(b *testing.B) { benchCheckTrace(b, false) }

// BenchmarkCheckTraceBlame is BenchmarkCheckTrace as `conc monitor
// --lock-edges` runs by default: with the atomicity tracker beside the
// conflict graph (which transactions are broken by themselves).
func BenchmarkCheckTraceBlame(b *testing.B) { benchCheckTrace(b, true) }

func benchCheckTrace(b *testing.B, blame bool) {
	o := montest.BenchGen
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
		opts := Options{TraceOptions: monitor.TraceOptions{LockEdges: true, MaxViolations: 1}, Blame: blame, OnBroken: func(*atomicity.Broken) {}}
		res, err := Check(context.Background(), r, opts)
		require.NoError(b, err)
		events = res.Stats.Events
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
