package predict

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/predict/internal/tuning"
	"github.com/conc-dev/conc/verify"
)

// TestDeepeningAgreesWithBrute: the short-chains-first scan
// (internal/chain/deepen.go), forced on whatever the thread count, gives the
// exhaustive scan's verdict (the default up to exhaustiveThreads threads) on
// random lock-free traces of 2 to 8 threads, which is brute's up to 4
// threads, and its witnesses replay.
func TestDeepeningAgreesWithBrute(t *testing.T) {
	n := 250
	if testing.Short() {
		n = 80
	}
	brute, err := engines.Lookup("brute")
	require.NoError(t, err)
	var tally [2]int
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 19))
		s := traceShape{Threads: 2 + r.IntN(7), Vars: 2 + r.IntN(6), Items: 1 + r.IntN(3)}
		src := randomTrace(r, s)
		full := projectionOf(t, src)
		want := predictString(t, src, Options{}).Result // exhaustive up to exhaustiveThreads
		if s.Threads <= 4 {
			b, err := brute.Check(context.Background(), full, engines.Options{MaxDepth: 1000})
			require.NoError(t, err)
			require.Equal(t, b.Verdict, want.Verdict, "seed %d\n%s", seed, src)
		}
		deep := predictString(t, src, Options{Tuning: tuning.Limits{Deepen: true}})
		require.Equal(t, want.Verdict, deep.Result.Verdict, "seed %d\n%s", seed, src)
		if deep.Result.Verdict == engines.Violation {
			require.NoError(t, verify.Witness(full, deep.Result.Witness), "seed %d\n%s", seed, src)
		}
		tally[want.Verdict]++
	}
	t.Logf("verdicts [serializable violation]: %v", tally)
	require.Greater(t, tally[0], n/10)
	require.Greater(t, tally[1], n/10)
}

// TestStopNoteNamesTheMemoryBudget: a search that the memory budget's
// watch cancels (context cause budget.Exceeded) says so, not that the
// deadline came; a plain cancellation still names the deadline.
func TestStopNoteNamesTheMemoryBudget(t *testing.T) {
	p := testPredictor(t, "T1|begin\nT1|r(x)\nT1|end\n", Options{})
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&budget.Exceeded{Limit: 1 << 20})
	p.ctx = ctx
	c := p.newChainer()
	for c.Count() {
	}
	require.Equal(t, "memory budget of 1 MiB reached (--max-memory raises it)", c.Stop)
	ctx, cancel2 := context.WithTimeout(context.Background(), 0)
	defer cancel2()
	<-ctx.Done()
	p.ctx = ctx
	c = p.newChainer()
	for c.Count() {
	}
	require.Equal(t, "deadline reached (--timeout)", c.Stop)
}
