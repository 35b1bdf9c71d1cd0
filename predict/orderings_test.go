package predict

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/trace"
	"github.com/stretchr/testify/require"
)

// predictOrdered is predictString on a trace read with the ordering
// extension (docs/spec.md §3).
func predictOrdered(t testing.TB, src string, o Options) *Outcome {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	out, err := Predict(context.Background(), r, o)
	require.NoError(t, err, "trace:\n%s", src)
	return out
}

// A trace with read locks or messages is proved serializable when it is
// so even with every synchronisation dropped (without lock edges: that
// only adds runs); with lock edges, which the orderings add to, nothing
// is proved.
func TestOrderingsProvedWithoutSync(t *testing.T) {
	src := "T1|begin\nT1|racq(l)\nT1|r(x)\nT1|rrel(l)\nT1|post(m)\nT1|end\nT2|wait(m)\nT2|acq(l)\nT2|w(y)\nT2|rel(l)\n"
	out := predictOrdered(t, src, Options{})
	require.Equal(t, engines.Serializable, out.Result.Verdict, out.Result.Reason)
	require.Equal(t, prefilterNote, out.Result.Reason)
	out = predictOrdered(t, src, Options{Check: engines.Options{LockEdges: true}})
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Equal(t, orderingsLockEdgesNote, out.Result.Reason)
}

// Witnesses keep the orderings: a post and its wait come along in the
// run, and the run still violates.
func TestOrderingsInWitness(t *testing.T) {
	src := "T1|begin\nT1|r(x)\nT1|post(m)\nT2|wait(m)\nT2|racq(l)\nT2|w(x)\nT2|rrel(l)\nT1|w(x)\nT1|end\n"
	for _, le := range []bool{false, true} {
		out := predictOrdered(t, src, Options{Check: engines.Options{LockEdges: le}})
		require.Equal(t, engines.Violation, out.Result.Verdict, out.Result.Reason)
		var b strings.Builder
		require.NoError(t, WriteSTD(&b, out.Program, out.Result.Witness))
		require.Contains(t, b.String(), "T1|post(m)|3\nT2|wait(m)|4\n", b.String())
	}
}

// TestOrderingsAgainstOracle: on random small traces with read locks,
// messages and tokens (docs/spec.md §3), predict's decided answers agree
// with the exhaustive reference, whose runs honour the orderings: a
// violation (with a witness the gate replayed, orderings included) is a
// violation of some run, and serializable means no run has a cycle.
// Without lock edges the global and brute engines honour the orderings
// and decide every trace, and agree; auto, whose product search is the
// global engine's, decides every trace too (it counts the answers its
// product search gave, not a shortcut). With lock edges every
// serializable trace with an ordering is unknown (its conflicts go
// unseen), but the violations are found.
func TestOrderingsAgainstOracle(t *testing.T) {
	n := testflag.N(300, 3000)
	rng := rand.New(rand.NewPCG(3, 14))
	var decided, violating [2]int // by lock edges
	byEngine := map[string]int{}  // auto's and global's answers without lock edges, by engine and step
	for range n {
		seed := rng.Uint64()
		src := projtest.OrderedTrace(seed, 8+rng.IntN(18), 2+rng.IntN(2), 1+rng.IntN(2), 1+rng.IntN(2), 1+rng.IntN(2))
		for k, le := range []bool{false, true} {
			want := oracleViolates(t, src, le)
			verdicts := map[string]engines.Verdict{}
			for _, eng := range []string{"auto", "global", "brute"} {
				out := predictOrdered(t, src, Options{Engine: eng, Check: engines.Options{LockEdges: le}})
				verdicts[eng] = out.Result.Verdict
				switch out.Result.Verdict {
				case engines.Violation:
					require.True(t, want, "engine %s lock edges %v: a violation no run has\n%s", eng, le, src)
					requireKeepsOrderings(t, src, out)
					decided[k]++
				case engines.Serializable:
					require.False(t, want, "engine %s lock edges %v: serializable, but a run violates\n%s", eng, le, src)
					decided[k]++
				}
				if want {
					violating[k]++
				}
				if !le {
					require.NotEqual(t, engines.Unknown, out.Result.Verdict, "engine %s: %s\n%s", eng, out.Result.Reason, src)
				}
				if !le && eng != "brute" {
					byEngine[eng+": "+answeredBy(out)]++
				}
			}
			if !le {
				require.Equal(t, verdicts["brute"], verdicts["global"], "global and brute\n%s", src)
			}
		}
	}
	t.Logf("auto's answers without lock edges: %v", byEngine)
	require.Zero(t, byEngine["auto: brute product search"], "auto answered through brute")
	require.Greater(t, byEngine["global: global product search"], n/5, "too few answers of global's product search")
	require.Greater(t, decided[0], 3*n*9/10, "too few decided answers without lock edges")
	require.Greater(t, violating[1], 3*n/5, "too few violating traces to test anything")
	require.Greater(t, decided[1], violating[1]*8/10, "too few violations found with lock edges")
}

// answeredBy names the engine of out and whether the product search
// answered (no shortcut's reason) or a shortcut did.
func answeredBy(out *Outcome) string {
	if out.Result.Reason == "" {
		return out.Result.Engine + " product search"
	}
	r := out.Result.Reason
	if len(r) > 40 {
		r = r[:40]
	}
	return out.Result.Engine + " shortcut " + r
}

// requireKeepsOrderings is projtest.RequireKeepsOrderings on out's
// witness written as STD.
func requireKeepsOrderings(t *testing.T, src string, out *Outcome) {
	t.Helper()
	var b strings.Builder
	require.NoError(t, WriteSTD(&b, out.Program, out.Result.Witness))
	projtest.RequireKeepsOrderings(t, src, b.String())
}
