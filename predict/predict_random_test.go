package predict

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/verify"
)

// predictConfigs are the ways predict is asked, each checked against brute
// on the projection program.
var predictConfigs = []struct {
	name string
	o    Options
}{
	{"auto", Options{}},
	{"auto lock-edges", Options{Check: engines.Options{LockEdges: true}}},
	{"ignore-sync", Options{Check: engines.Options{IgnoreSync: true}}},
	{"global", Options{Engine: "global"}},
	{"global lock-edges", Options{Engine: "global", Check: engines.Options{LockEdges: true}}},
}

// TestPredictAgreesWithBrute is predict's correctness claim: on thousands of
// random traces (2 to 4 threads, locks, fork and join, unary and nested
// transactions; 200 in the quick suite, 2,000 with CONC_LONG=1) every
// configuration gives brute's verdict on the projection program, and every
// witness replays on it.
func TestPredictAgreesWithBrute(t *testing.T) {
	n := testflag.N(200, 2000)
	brute, err := engines.Lookup("brute")
	require.NoError(t, err)
	var tally [2]int
	paths := map[string]int{} // which way each violation was found
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		src := randomTrace(r, randomShape(r))
		full := projectionOf(t, src)
		// Brute's answer depends only on the conflict relation and the
		// model, which several configurations share: ask it once for each.
		type question struct{ lockEdges, ignoreSync bool }
		bruteOf := map[question]engines.Result{}
		for _, c := range predictConfigs {
			opts := c.o.Check
			opts.MaxDepth = 1000
			q := question{opts.LockEdges, opts.IgnoreSync}
			wres, asked := bruteOf[q]
			if !asked {
				wres, err = brute.Check(context.Background(), full, opts)
				require.NoError(t, err)
				bruteOf[q] = wres
			}
			require.NotEqual(t, engines.Unknown, wres.Verdict, "brute unknown: %s", wres.Reason)
			got := predictString(t, src, c.o)
			require.Equal(t, wres.Verdict, got.Result.Verdict, "seed %d, %s, engine %s\n%s", seed, c.name, got.Result.Engine, src)
			tally[wres.Verdict]++
			if got.Result.Verdict == engines.Violation {
				paths[got.Result.Engine+": "+strings.SplitN(got.Result.Reason, " from line", 2)[0]]++
				p := full
				if opts.IgnoreSync {
					p = model.DropSync(full)
				}
				require.NoError(t, verify.Witness(p, got.Result.Witness), "seed %d, %s\n%s", seed, c.name, src)
				requireSTDRoundTrip(t, src, got, opts.LockEdges && !opts.IgnoreSync)
			}
		}
	}
	t.Logf("verdicts [serializable violation]: %v; violations found by %v", tally, paths)
	for _, way := range []string{"profile: ", "global: ", "global: " + normalRunNote, "global: the trace as observed is not serializable"} {
		require.Greater(t, paths[way], n/50, "violations found by %q", way)
	}
	require.Greater(t, tally[0], n/10)
	require.Greater(t, tally[1], n/10)
}

// requireSTDRoundTrip: the witness written as STD is a trace whose every
// line is an original line's event, and which conc monitor's checker
// finds not serializable (projtest.RequireSTDRun).
func requireSTDRoundTrip(t *testing.T, src string, out *Outcome, lockEdges bool) {
	t.Helper()
	var b strings.Builder
	require.NoError(t, WriteSTD(&b, out.Program, out.Result.Witness))
	projtest.RequireSTDRun(t, src, b.String(), lockEdges)
}
