package gen

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
)

// TestChainNeedsAllThreads checks the chain family's claim: a violation
// whose cycle passes through all k threads, so that removing any one thread
// leaves a serializable program, and a twin that is serializable.
func TestChainNeedsAllThreads(t *testing.T) {
	for k := 2; k <= 6; k++ {
		for _, n := range []int{0, 3} {
			t.Run(fmt.Sprintf("k=%d/n=%d", k, n), func(t *testing.T) {
				p := compile(t, Chain(k, n, false))
				require.Len(t, p.Threads, k)
				res := decide(t, "profile", p, engines.Options{})
				require.Equal(t, engines.Violation, res.Verdict)
				for i := range k {
					require.Equal(t, engines.Serializable, decide(t, "profile", without(p, i), engines.Options{}).Verdict,
						"without thread %d", i)
				}
				twin := compile(t, Chain(k, n, true))
				require.Equal(t, engines.Serializable, decide(t, "profile", twin, engines.Options{}).Verdict)
			})
		}
	}
}

// TestChainCycleLength checks that the witness's cycle visits every thread.
func TestChainCycleLength(t *testing.T) {
	for k := 2; k <= 5; k++ {
		p := compile(t, Chain(k, 1, false))
		res := decide(t, "global", p, engines.Options{})
		require.Equal(t, engines.Violation, res.Verdict)
		threads := map[int32]bool{}
		for _, c := range res.Witness.Cycle {
			threads[res.Witness.Run[c.From].Thread] = true
			threads[res.Witness.Run[c.To].Thread] = true
		}
		require.Len(t, threads, k, "k=%d", k)
	}
}

// TestChainEnginesAgree runs the exact engines on small chains and twins.
func TestChainEnginesAgree(t *testing.T) {
	for k := 2; k <= 3; k++ {
		for n := 0; n <= 2; n++ {
			for _, twin := range []bool{false, true} {
				p := compile(t, Chain(k, n, twin))
				want := decide(t, "profile", p, engines.Options{}).Verdict
				for _, e := range []string{"global", "brute"} {
					require.Equal(t, want, decide(t, e, p, engines.Options{MaxDepth: 64}).Verdict,
						"%s, k=%d n=%d twin=%v", e, k, n, twin)
				}
			}
		}
	}
}
