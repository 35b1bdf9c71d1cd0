package predict

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/trace"
)

// The observed order is one of the reorderings predict considers: on
// random traces with read locks, messages and tokens, whenever conc
// monitor finds the observed order not serializable, predict answers
// violation too (its observed step keeps the whole prefix when the trimmed
// one breaks an ordering). With lock edges a cycle through a token's edge
// cannot be a witness (which give a take takes is the run's), so there
// only traces without tokens must agree.
func TestPredictFindsWhatMonitorFinds(t *testing.T) {
	n := testflag.N(400, 4000)
	rng := rand.New(rand.NewPCG(3, 99))
	agreed := 0
	for range n {
		src := projtest.OrderedTrace(rng.Uint64(), 8+rng.IntN(40), 2+rng.IntN(3), 1+rng.IntN(2), 1+rng.IntN(2), 1+rng.IntN(2))
		for _, le := range []bool{false, true} {
			if !monitorViolates(t, src, le) || le && strings.Contains(src, "|take(") {
				continue
			}
			out := predictOrdered(t, src, Options{Check: engines.Options{LockEdges: le}})
			require.Equal(t, engines.Violation, out.Result.Verdict, "lock edges %v: %s\n%s", le, out.Result.Reason, src)
			requireKeepsOrderings(t, src, out)
			agreed++
		}
	}
	require.Greater(t, agreed, n/4)
}

// monitorViolates runs conc monitor's conflict graph over src.
func monitorViolates(t *testing.T, src string, lockEdges bool) bool {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	m := monitor.NewTraceMonitor(monitor.TraceOptions{LockEdges: lockEdges})
	for {
		ev, err := r.Next()
		if err != nil {
			require.Equal(t, "EOF", err.Error())
			return m.Finish().Violation
		}
		m.Step(ev)
	}
}
