package all

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/trace"
)

// orderedReader reads src with the ordering extension (docs/spec.md §3).
func orderedReader(t testing.TB, src string) *trace.Reader {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	return r
}

// TestAllOrderings: on random traces with read locks, messages and
// tokens, --all answers predict's verdict (or, for its unknown, a
// violation with groups: docs/spec.md §4), and every group it shows has a
// witness that
// keeps the orderings (re-read as STD, each wait after every post of its
// message) and that the monitor finds not serializable.
func TestAllOrderings(t *testing.T) {
	n := testflag.N(150, 1500)
	rng := rand.New(rand.NewPCG(8, 21))
	shown := 0
	for range n {
		src := projtest.OrderedTrace(rng.Uint64(), 8+rng.IntN(30), 2+rng.IntN(3), 1+rng.IntN(2), 1+rng.IntN(2), 1+rng.IntN(2))
		for _, le := range []bool{false, true} {
			o := predict.Options{Check: engines.Options{LockEdges: le}}
			want, err := predict.Predict(context.Background(), orderedReader(t, src), o)
			require.NoError(t, err)
			a, err := Find(context.Background(), orderedReader(t, src), o)
			require.NoError(t, err, "trace:\n%s", src)
			if want.Result.Verdict == engines.Unknown && a.Result.Verdict == engines.Violation {
				require.NotEmpty(t, a.Groups, "an unknown turned violation has a group") // docs/spec.md §4
			} else {
				require.Equal(t, want.Result.Verdict, a.Result.Verdict, "lock edges %v\n%s", le, src)
			}
			for k := range a.Groups {
				out, err := a.Witness(k)
				require.NoError(t, err)
				if out == nil {
					continue
				}
				var b strings.Builder
				require.NoError(t, predict.WriteSTD(&b, out.Program, out.Result.Witness))
				projtest.RequireKeepsOrderings(t, src, b.String())
				projtest.RequireSTDRun(t, src, b.String(), le)
				shown++
			}
			require.NoError(t, a.Close())
		}
	}
	require.Greater(t, shown, n/2, "too few groups shown to test anything")
}
