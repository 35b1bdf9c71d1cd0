package profile

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/gen"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/verify"
)

// TestProfileNP decides gen's np family (Theorem 2's reduction from 3-SAT):
// the program violates atomicity iff its formula is satisfiable. Every
// thread is distinct here, so this is the chain search's hard case. The
// product construction, exponential in the number of threads as Theorem 1
// says, is compared on the instances of at most 25 threads. 40 formulas in
// the quick suite, 120 with CONC_LONG=1.
func TestProfileNP(t *testing.T) {
	n := testflag.N(40, 120)
	counts := map[bool]int{}
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		vars := 2 + r.IntN(4)
		f := gen.RandomCNF(r, vars, 3*vars+r.IntN(3*vars+1)) // around the hard ratio
		src := gen.NP(f)
		p, err := lang.Compile("np.conc", []byte(src))
		require.NoError(t, err)
		want := engines.Serializable
		if f.Satisfiable() {
			want = engines.Violation
		}
		if len(p.Threads) <= 25 {
			require.Equal(t, want, pfCheck(t, p, engines.Options{}), "seed %d\n%s", seed, src)
		} else {
			res, err := Check(t.Context(), p, engines.Options{})
			require.NoError(t, err)
			require.Equal(t, want, res.Verdict, "seed %d\n%s", seed, src)
			if want == engines.Violation {
				require.NoError(t, verify.Witness(p, res.Witness))
			}
		}
		counts[want == engines.Violation]++
	}
	t.Logf("satisfiable: %d, unsatisfiable: %d", counts[true], counts[false])
	require.Greater(t, counts[false], n/6)
	require.Greater(t, counts[true], n/6)
}

// BenchmarkProfileNP: random 3-CNF at the hard ratio (clauses ≈ 4.26 vars).
func BenchmarkProfileNP(b *testing.B) {
	for _, vars := range []int{6, 10, 14} {
		r := rand.New(rand.NewPCG(1, 1))
		f := gen.RandomCNF(r, vars, vars*426/100)
		p, err := lang.Compile("np.conc", []byte(gen.NP(f)))
		if err != nil {
			b.Fatal(err)
		}
		want := engines.Serializable
		if f.Satisfiable() {
			want = engines.Violation
		}
		b.Run(fmt.Sprintf("vars=%d/threads=%d/%v", vars, len(p.Threads), want), func(b *testing.B) {
			benchProfile(b, p, want)
		})
	}
}
