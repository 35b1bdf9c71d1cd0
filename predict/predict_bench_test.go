package predict

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/trace"
)

// benchTrace is the monitor benchmarks' workload without locks (8 threads,
// 10^4 variables; with hot > 0 every access picks among the first hot
// ones), as STD text in memory.
func benchTrace(b *testing.B, events int64, txnLen, hot int) []byte {
	g := trace.NewGen(trace.GenOptions{Seed: 1, Events: events, Threads: 8, Vars: 10000, TxnLen: txnLen,
		Unary: 0.3, Nested: 0.1, Writes: 0.3, Hot: hot})
	var buf bytes.Buffer
	_, err := g.WriteTo(&buf)
	require.NoError(b, err)
	return buf.Bytes()
}

// benchPredict runs lock-free predict (parse, first pass, scan, witness)
// over src and reports events per second.
func benchPredict(b *testing.B, src []byte) {
	var events int64
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		r, err := trace.NewReader(bytes.NewReader(src), "bench.std", trace.Options{})
		require.NoError(b, err)
		out, err := Predict(context.Background(), r, Options{})
		require.NoError(b, err)
		require.NotEqual(b, engines.Unknown, out.Result.Verdict)
		events += out.Result.Stats.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkPredictLockFree: 10^6 events, transactions of up to 8 accesses
// to 8 hot variables: a violation early (the scan stops there; the witness
// is materialised).
func BenchmarkPredictLockFree(b *testing.B) {
	benchPredict(b, benchTrace(b, 1_000_000, 8, 8))
}

// BenchmarkPredictLockFreeScanAll: 10^6 events, one access per
// transaction over 10^4 variables: serializable, so the scan reads
// everything.
func BenchmarkPredictLockFreeScanAll(b *testing.B) {
	benchPredict(b, benchTrace(b, 1_000_000, 1, 0))
}

// BenchmarkPredictManyThreads: 30 threads of `begin r(x) w(x) end`; the
// short-chain pass finds the violation (internal/chain/deepen.go).
func BenchmarkPredictManyThreads(b *testing.B) {
	benchPredict(b, []byte(pairsTrace(30)))
}

// BenchmarkPredictManyWriters: one two-access transaction and 15,999
// threads of one write (internal/chain/scan.go's pooled minima).
func BenchmarkPredictManyWriters(b *testing.B) {
	benchPredict(b, []byte(writersTrace(16_000)))
}

// BenchmarkPredictThreeThreads: 4,001 threads, a violation that needs
// two of them besides the interrupted one.
func BenchmarkPredictThreeThreads(b *testing.B) {
	benchPredict(b, []byte(threeTrace(2000)))
}

// BenchmarkChainStates: 30 threads that chain every way and never close,
// cut at 2·10^5 states: the cost of a chain state beyond 16 threads.
func BenchmarkChainStates(b *testing.B) {
	src := []byte(stuckTrace(30))
	for b.Loop() {
		r, err := trace.NewReader(bytes.NewReader(src), "bench.std", trace.Options{})
		require.NoError(b, err)
		out, err := Predict(context.Background(), r, Options{Check: engines.Options{MaxStates: 200_000}})
		require.NoError(b, err)
		require.Equal(b, engines.Unknown, out.Result.Verdict)
	}
	b.ReportMetric(200_000*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}
