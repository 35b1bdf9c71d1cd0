package predict

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/trace"
)

// BenchmarkPredictPairLocked is a large synthetic shape (`conc gen
// random --trace --threads 8 --vars 10000 --locks 16 --txn 8`) at 10⁶
// events, parsed from memory: predict's whole pipeline, which answers with
// the lock-aware two-thread pattern (the reduced projection is too large
// for the product search). Reported in events/s.
func BenchmarkPredictPairLocked(b *testing.B) {
	g := trace.NewGen(trace.GenOptions{Seed: 1, Events: 1_000_000, Threads: 8, Vars: 10000,
		Locks: 16, TxnLen: 8, Unprotected: 0.1, Unary: 0.1, Writes: 0.5})
	var buf bytes.Buffer
	_, err := g.WriteTo(&buf)
	require.NoError(b, err)
	src := buf.Bytes()
	b.ResetTimer()
	for b.Loop() {
		r, err := trace.NewReader(bytes.NewReader(src), "syn.std", trace.Options{})
		require.NoError(b, err)
		out, err := Predict(context.Background(), r, Options{})
		require.NoError(b, err)
		require.Equal(b, engines.Violation, out.Result.Verdict, out.Result.Reason)
	}
	b.ReportMetric(float64(b.N)*1e6/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkNestedDecision is the linear two-thread decision (step 5c,
// internal/nested) alone, on the synthetic shape at 10⁶ events with every
// access under its variable's lock, so that no pattern passes and both
// passes read everything: the proof, in events/s (spool built once).
func BenchmarkNestedDecision(b *testing.B) {
	g := trace.NewGen(trace.GenOptions{Seed: 1, Events: 1_000_000, Threads: 8, Vars: 10000,
		Locks: 16, TxnLen: 8, Unprotected: 0, Unary: 0.1, Writes: 0.5})
	var buf bytes.Buffer
	_, err := g.WriteTo(&buf)
	require.NoError(b, err)
	p := testPredictor(b, buf.String(), Options{})
	b.ResetTimer()
	for b.Loop() {
		out, nr, err := p.nestedPairs()
		require.NoError(b, err)
		require.Nil(b, out)
		require.True(b, nr.proved, "%+v", nr)
	}
	b.ReportMetric(float64(b.N)*float64(p.s.Events)/b.Elapsed().Seconds(), "events/s")
}
