package predict

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/verify"
)

// TestObservedWitness: whenever the trace as observed is not serializable,
// the observed prefix gives a witness that replays on the projection program
// (with and without lock edges) and the shortcut never falls back. On 600
// random traces with CONC_LONG=1, 100 in the quick suite.
func TestObservedWitness(t *testing.T) {
	n := testflag.N(100, 600)
	hits := 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		src := randomTrace(r, randomShape(r))
		full := projectionOf(t, src)
		for _, lockEdges := range []bool{false, true} {
			tr, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
			require.NoError(t, err)
			mres, err := monitor.CheckTrace(context.Background(), tr, monitor.TraceOptions{LockEdges: lockEdges})
			require.NoError(t, err)
			p := newTestPredictor(t, src, Options{Check: engines.Options{LockEdges: lockEdges}})
			out, ok, err := p.observed()
			require.NoError(t, err)
			require.Equal(t, mres.Violation, ok, "seed %d lock edges %v\n%s", seed, lockEdges, src)
			if ok {
				hits++
				require.NoError(t, verify.Witness(full, out.Result.Witness), "seed %d\n%s", seed, src)
			}
		}
	}
	require.Greater(t, hits, n/4)
}

// newTestPredictor runs the first pass on src.
func newTestPredictor(t *testing.T, src string, o Options) *predictor {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	sp, err := proj.NewSpool(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { sp.Close() })
	s, err := proj.Collect(context.Background(), r, sp)
	require.NoError(t, err)
	return &predictor{ctx: context.Background(), s: s, u: s.Users(), sp: sp, o: o}
}
