package observed

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/monitor/pass"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
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
		src := projtest.RandomTrace(r, projtest.RandomShape(r))
		full := projtest.Projection(t, src)
		for _, lockEdges := range []bool{false, true} {
			tr, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
			require.NoError(t, err)
			mres, err := pass.Check(context.Background(), tr, pass.Options{TraceOptions: monitor.TraceOptions{LockEdges: lockEdges}})
			require.NoError(t, err)
			in := firstPass(t, src, lockEdges)
			w, ok, err := answer(in)
			require.NoError(t, err)
			require.Equal(t, mres.Violation, ok, "seed %d lock edges %v\n%s", seed, lockEdges, src)
			if ok {
				hits++
				require.NoError(t, verify.Witness(full, w), "seed %d\n%s", seed, src)
			}
		}
	}
	require.Greater(t, hits, n/4)
}

// answer is predict's use of the finder: the monitor's first violation,
// planned, trimmed, materialised over the projection, and kept only if it
// replays.
func answer(in Input) (*model.Witness, bool, error) {
	v, first, ok, err := Find(context.Background(), in, nil)
	if err != nil || !ok {
		return nil, false, err
	}
	pl, ok, err := Plan(in, v, first)
	if err != nil || !ok {
		return nil, false, err
	}
	if pl, err = Trim(in, pl, first); err != nil {
		return nil, false, err
	}
	m, err := in.Summary.Materialise(in.Spool, pl, false, in.LockEdges)
	if err != nil || in.Summary.Replays(m) != nil {
		return nil, false, err
	}
	return m.Witness, true, nil
}

// firstPass runs predict's first pass on src.
func firstPass(t *testing.T, src string, lockEdges bool) Input {
	s, sp := projtest.FirstPass(t, src)
	return Input{Summary: s, Spool: sp, LockEdges: lockEdges}
}
