package predict

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/verify"
)

// lockEdgeEngines are the ways predict is asked under lock edges.
var lockEdgeEngines = []string{"auto", "global", "brute"}

// requireLockEdgesViolation: every engine under lock edges finds a
// violation in src, whose witness replays on the projection program and,
// written as STD (--witness-out), is a violation for the trace monitor;
// so is every --all group's, whose schedule rebuilds that STD run.
func requireLockEdgesViolation(t *testing.T, src string) {
	t.Helper()
	full := projectionOf(t, src)
	for _, e := range lockEdgeEngines {
		o := Options{Engine: e, Check: engines.Options{LockEdges: true}}
		out := predictString(t, src, o)
		require.Equal(t, engines.Violation, out.Result.Verdict, "%s: %s", e, out.Result.Reason)
		require.NoError(t, verify.Witness(full, out.Result.Witness), e)
		requireSTDRoundTrip(t, src, out, true)
		a := allString(t, src, o)
		require.Equal(t, engines.Violation, a.Result.Verdict, e)
		for k := range a.Groups {
			g, err := a.Witness(k)
			require.NoError(t, err)
			if g != nil {
				requireSTDRoundTrip(t, src, g, true)
				requireScheduleExact(t, src, g, false)
			}
		}
	}
}

// The cycle fork → T2's begin → join passes through T2's transaction,
// which is only its begin: --witness-out must keep that begin (not drop
// it as a begin that ends its thread's part of the run), or the file read
// back is serializable.
func TestLockEdgesWitnessKeepsCycleBegin(t *testing.T) {
	requireLockEdgesViolation(t, "T1|begin\nT1|fork(T2)\nT2|begin\nT1|join(T2)\n")
}

// T1's two unary reads conflict with no other thread: the reduced
// projection keeps T1 as empty transactions between its fork and its
// join, not one whose begin and end stand for the first read's and the
// second's: with one, the expanded witness's cycle does not chain (global
// and brute: an internal error).
func TestLockEdgesEventlessThreadSpansTransactions(t *testing.T) {
	requireLockEdgesViolation(t, "T0|begin\nT0|fork(T1)\nT1|r(x)\nT1|r(x)\nT0|join(T1)\nT0|end\n")
	requireLockEdgesViolation(t, "T0|begin\nT0|fork(T1)\nT1|acq(m)\nT1|rel(m)\nT1|r(x)\nT0|join(T1)\nT0|end\n")
	requireLockEdgesViolation(t, "T0|begin\nT0|fork(T1)\nT1|begin\nT1|r(x)\nT1|end\nT1|begin\nT1|w(y)\nT0|join(T1)\nT0|end\n")
}
