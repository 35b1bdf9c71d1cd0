package predict

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict/internal/tuning"
	"github.com/conc-dev/conc/trace"
)

// Inputs of a few kilobytes on which an unbounded or careless search would
// hang or crash predict.

// pairsTrace is n threads, each one transaction `begin r(x) w(x) end`: any
// two violate, and the exhaustive chain search took 2^(n-1) states.
func pairsTrace(n int) string {
	var b strings.Builder
	for t := range n {
		fmt.Fprintf(&b, "T%d|begin\nT%d|r(x)\nT%d|w(x)\nT%d|end\n", t, t, t, t)
	}
	return b.String()
}

// writersTrace is one two-access transaction and n-1 threads of one write
// each: the scan held threads² minima.
func writersTrace(n int) string {
	return writersAfter("T0|begin\nT0|r(x)\nT0|w(x)\nT0|end\n", n)
}

// threeTrace needs a chain of two threads: T0's r(x) … w(y) is
// interrupted by one of n writers of x and z and one of n readers of z and
// y, and by nothing shorter.
func threeTrace(n int) string {
	var b strings.Builder
	b.WriteString("T0|begin\nT0|r(x)\nT0|w(y)\nT0|end\n")
	for t := 1; t <= n; t++ {
		fmt.Fprintf(&b, "W%d|begin\nW%d|w(x)\nW%d|w(z)\nW%d|end\n", t, t, t, t)
		fmt.Fprintf(&b, "R%d|begin\nR%d|r(z)\nR%d|r(y)\nR%d|end\n", t, t, t, t)
	}
	return b.String()
}

// predictWithin predicts src under a deadline that only a hang reaches.
func predictWithin(t *testing.T, src string, o Options) *Outcome {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	out, err := Predict(ctx, r, o)
	require.NoError(t, err)
	return out
}

// TestManyThreadsShortChain: 30 threads, a two-thread violation, found
// in a handful of chain states (the exhaustive search needed 2^29; under
// --max-states 10^5 it answered unknown).
func TestManyThreadsShortChain(t *testing.T) {
	out := predictWithin(t, pairsTrace(30), Options{Check: engines.Options{MaxStates: 100_000}})
	require.Equal(t, engines.Violation, out.Result.Verdict, out.Result.Reason)
	require.Less(t, out.Result.Stats.States, int64(100))
}

// TestManyThreadsLongChain: deepening goes on until the bound spans every
// thread: the ring of 30 needs a chain of 29 (passes of 2, 4, 8, 16,
// then unbounded).
func TestManyThreadsLongChain(t *testing.T) {
	out := predictWithin(t, ringTrace(30), Options{})
	require.Equal(t, engines.Violation, out.Result.Verdict, out.Result.Reason)
	require.Len(t, out.Result.Witness.Cycle, 30)
}

// TestChainBudget: without --max-states or --timeout the lock-free search
// has a default budget, and says so (without it the search runs for ever).
func TestChainBudget(t *testing.T) {
	r, err := trace.NewReader(strings.NewReader(stuckTrace(30)), "t.std", trace.Options{})
	require.NoError(t, err)
	type answer struct {
		out *Outcome
		err error
	}
	done := make(chan answer, 1)
	go func() {
		out, err := Predict(context.Background(), r, Options{Tuning: tuning.Limits{ChainBudget: 20_000}})
		done <- answer{out, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-time.After(20 * time.Second): // a deadline of its own would turn the default budget off
		t.Fatal("no answer in 20 s")
	}
	require.NoError(t, a.err)
	out := a.out
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Contains(t, out.Result.Reason, "default budget of 20000 chain states")
	require.Contains(t, out.Result.Reason, "--max-states")
}

// TestManyWritersLinear: 4,000 threads, one of them with a two-access
// transaction. The scan's minima are held by that transaction alone: the
// whole prediction allocates a few MB (it allocated threads² × 16 bytes,
// 256 MB, before; 16,000 threads crashed).
func TestManyWritersLinear(t *testing.T) {
	src := writersTrace(4000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out := predictWithin(t, src, Options{})
	runtime.ReadMemStats(&after)
	require.Equal(t, engines.Violation, out.Result.Verdict)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d KiB", alloc>>10)
	require.Less(t, alloc, uint64(32<<20))
}

// TestManyThreadsThreeThreads: 4,001 threads, a three-thread violation, found
// by the linear two-thread pass (internal/chain/chain_short.go) in a few
// thousand steps; a search over (set, thread) states needed 4,000² of them.
func TestManyThreadsThreeThreads(t *testing.T) {
	out := predictWithin(t, threeTrace(2000), Options{Check: engines.Options{MaxStates: 100_000}})
	require.Equal(t, engines.Violation, out.Result.Verdict, out.Result.Reason)
	require.Len(t, out.Result.Witness.Cycle, 3)
	require.Less(t, out.Result.Stats.States, int64(10_000))
}

// manyTxnsTrace is n threads T_t of one transaction `begin w(x) w(z_t)
// end` and n threads Z_t reading z_t: every transaction needs F, each F
// enters the n-1 other T's (and through them the other Z's), and no chain
// reaches Z_t from T_t, so there is no violation and each first-pass F
// costs about 2n chain states.
func manyTxnsTrace(n int) string {
	var b strings.Builder
	for t := range n {
		fmt.Fprintf(&b, "T%d|begin\nT%d|w(x)\nT%d|w(z%d)\nT%d|end\nZ%d|r(z%d)\n", t, t, t, t, t, t, t)
	}
	return b.String()
}

// TestShortPassBudget: the first pass (internal/chain/chain_short.go) stops at
// --max-states like the search it stands for. A pass that counts its
// states without looking at the limit runs 500 such transactions to
// 499,001 states under --max-states 1000, and 8,000 past two minutes.
func TestShortPassBudget(t *testing.T) {
	out := predictWithin(t, manyTxnsTrace(500), Options{Check: engines.Options{MaxStates: 1000}})
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Contains(t, out.Result.Reason, "--max-states")
	require.Equal(t, int64(1001), out.Result.Stats.States)
}
