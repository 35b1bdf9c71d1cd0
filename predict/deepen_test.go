package predict

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/verify"
)

// TestDeepeningAgreesWithBrute: the short-chains-first scan (deepen.go),
// forced on whatever the thread count, gives brute's verdict on random
// lock-free traces of 2 to 5 threads, and its witnesses replay. The
// exhaustive first pass (the default up to exhaustiveThreads threads)
// must agree with it too.
func TestDeepeningAgreesWithBrute(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 150
	}
	brute, err := engines.Lookup("brute")
	require.NoError(t, err)
	var tally [2]int
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 19))
		s := traceShape{threads: 2 + r.IntN(4), vars: 1 + r.IntN(3), items: 1 + r.IntN(3)}
		src := randomTrace(r, s)
		full := projectionOf(t, src)
		want, err := brute.Check(context.Background(), full, engines.Options{MaxDepth: 1000})
		require.NoError(t, err)
		require.NotEqual(t, engines.Unknown, want.Verdict, want.Reason)
		deep := predictString(t, src, Options{deepen: true})
		require.Equal(t, want.Verdict, deep.Result.Verdict, "seed %d\n%s", seed, src)
		require.Equal(t, want.Verdict, predictString(t, src, Options{}).Result.Verdict, "seed %d\n%s", seed, src)
		if deep.Result.Verdict == engines.Violation {
			require.NoError(t, verify.Witness(full, deep.Result.Witness), "seed %d\n%s", seed, src)
		}
		tally[want.Verdict]++
	}
	t.Logf("verdicts [serializable violation]: %v", tally)
	require.Greater(t, tally[0], n/10)
	require.Greater(t, tally[1], n/10)
}
