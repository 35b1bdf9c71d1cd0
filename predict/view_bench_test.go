package predict

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/trace"
)

// genTrace is conc gen random --trace --events n (with --locks 1 when
// oneLock: every access under the one lock, so no pattern survives the
// block test), as STD text in memory.
func genTrace(b *testing.B, n int64, oneLock bool) []byte {
	o := trace.GenOptions{Seed: 1, Events: n}
	if oneLock {
		o.Locks = 1
	}
	var buf bytes.Buffer
	_, err := trace.NewGen(o.Random(oneLock)).WriteTo(&buf)
	require.NoError(b, err)
	return buf.Bytes()
}

// benchView runs predict --criterion view over src and reports events
// per second; want is the verdict.
func benchView(b *testing.B, src []byte, want engines.Verdict) {
	var events int64
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		r, err := trace.NewReader(bytes.NewReader(src), "bench.std", trace.Options{})
		require.NoError(b, err)
		out, err := Predict(context.Background(), r, Options{Criterion: View})
		require.NoError(b, err)
		require.Equal(b, want, out.Result.Verdict, out.Result.Reason)
		events += out.Result.Stats.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkPredictView: conc gen random --trace --events 100000 (four
// threads, two locks, unprotected accesses): the block test's patterns
// and the witness of the first that has a run.
func BenchmarkPredictView(b *testing.B) {
	benchView(b, genTrace(b, 100_000, false), engines.Violation)
}

// BenchmarkPredictViewProof: conc gen random --trace --locks 1 --events
// 1000000: every access under one lock; the block pass and the test over
// every two threads' blocks prove it.
func BenchmarkPredictViewProof(b *testing.B) {
	benchView(b, genTrace(b, 1_000_000, true), engines.Serializable)
}
