package predict

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/predict/internal/products"
	"github.com/conc-dev/conc/verify"
)

// TestPairProductAgreesWithOracle: on random small traces (2 to 4 threads,
// nested and non-nested locks, fork and join, unary and multi-access
// transactions; 150 quick, 2,000 with CONC_LONG=1), under both semantics,
// every pair of threads that pair_product.go decides gets the brute-force
// oracle's answer (pairbrute_test.go): a violation exactly when some run
// has a cycle through that pair's transactions only, with a witness that
// replays on the projection program and whose STD file the trace monitor
// flags. A pair left undecided is counted, and must be rare. When at most
// two threads are busy and their pair is proved free, brute must find the
// trace serializable (step 6b's answer).
func TestPairProductAgreesWithOracle(t *testing.T) {
	n := testflag.N(150, 2000)
	count := map[string]int{}
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 61))
		src := randomPairTraces(r)
		full := projectionOf(t, src)
		for _, lockEdges := range []bool{false, true} {
			want := twoThreadCycles(t, src, lockEdges)
			o := Options{Check: engines.Options{LockEdges: lockEdges}, Unbounded: true}
			p := testPredictor(t, src, o)
			names := p.s.ThreadNames
			size, err := p.s.Reduce(p.sp, p.u, lockEdges, false, true)
			require.NoError(t, err)
			busy, busyNone := 0, 0 // busy threads, and their pairs proved free
			for _, c := range size.Counts {
				busy += b2i(c > 0)
			}
			for t1 := range names {
				for t2 := t1 + 1; t2 < len(names); t2++ {
					pair := sortedPair(names[t1], names[t2])
					v, out, err := p.pairProduct(t1, t2, 0, 1)
					require.NoError(t, err, "seed %d\n%s", seed, src)
					switch v {
					case products.Violation:
						count["violation"]++
						require.True(t, want[pair], "seed %d lock-edges %v: pair %v violates for the product, not for the oracle\n%s",
							seed, lockEdges, pair, src)
						require.NoError(t, verify.Witness(full, out.Result.Witness), "seed %d\n%s", seed, src)
						requireSTDRoundTrip(t, src, out, lockEdges)
					case products.None:
						count["none"]++
						busyNone += b2i(size.Counts[t1] > 0 && size.Counts[t2] > 0)
						require.False(t, want[pair], "seed %d lock-edges %v: pair %v proved free of two-thread cycles, the oracle has one\n%s",
							seed, lockEdges, pair, src)
					default:
						count["undecided"]++
						if want[pair] {
							count["undecided, oracle violation"]++
						}
					}
				}
			}
			// Step 6b's serializable: at most two busy threads, their pair
			// proved, and no other thread can be on a cycle.
			if busy <= 2 && busyNone == busy*(busy-1)/2 {
				count["serializable by the pairs"]++
				require.False(t, bruteViolates(t, src, lockEdges), "seed %d lock-edges %v: the pairs prove it, brute violates\n%s",
					seed, lockEdges, src)
			}
		}
	}
	t.Logf("pairs: %v", count)
	require.Greater(t, count["serializable by the pairs"], n/10)
	require.Greater(t, count["violation"], n/10)
	require.Greater(t, count["none"], n/10)
	require.LessOrEqual(t, count["undecided"], (count["violation"]+count["none"])/20)
}
