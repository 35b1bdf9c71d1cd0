package predict

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict/internal/tuning"
)

// threeOnly has a chain of conflicts through three threads, T1 r(x) ->
// T2 w(x) w(y) -> T3 r(y) w(z) -> T1 r(z), that the locks make impossible
// (T1 holds m and n over its transaction, T2 needs n, T3 needs m, and T3
// holds m over its own), and no violation at all; no pair has a
// two-thread cycle (T1 excludes both others; T2 and T3 share only y). No
// lock guards all of T1's accesses, so the critical-section proof does not
// apply.
const threeOnly = "T1|acq(m)\nT1|acq(n)\nT1|begin\nT1|r(x)\nT1|r(z)\nT1|end\nT1|rel(n)\nT1|rel(m)\n" +
	"T2|acq(n)\nT2|begin\nT2|w(x)\nT2|w(y)\nT2|end\nT2|rel(n)\n" +
	"T3|acq(m)\nT3|begin\nT3|r(y)\nT3|w(z)\nT3|end\nT3|rel(m)\n"

// TestPairProductsLeaveLongerCycles: when the product of all threads runs
// out of its budget after every pair was proved free of two-thread
// cycles, the unknown says what was excluded; with its budget the product
// decides.
func TestPairProductsLeaveLongerCycles(t *testing.T) {
	for _, lockEdges := range []bool{false, true} {
		out := predictString(t, threeOnly, Options{Tuning: tuning.Limits{Budget: 1}, Check: engines.Options{LockEdges: lockEdges}})
		require.Equal(t, engines.Unknown, out.Result.Verdict, "lock edges %v", lockEdges)
		require.Contains(t, out.Result.Reason, "no violation involving two threads")
		require.Contains(t, out.Result.Reason, "cycles through three or more threads were not decided: ")
		require.NotContains(t, out.Result.Reason, "which is no proof")
		out = predictString(t, threeOnly, Options{Check: engines.Options{LockEdges: lockEdges}})
		require.Equal(t, engines.Serializable, out.Result.Verdict, out.Result.Reason)
		// A table limit between the pairs' (at most 17 states, 408 bytes)
		// and all threads' (23 states, 552 bytes): step 6's unknown had
		// said the two-thread searches prove nothing, which the pairs'
		// proof now replaces.
		out = predictString(t, threeOnly, Options{Tuning: tuning.Limits{MaxTable: 500}, Check: engines.Options{LockEdges: lockEdges}})
		require.Equal(t, engines.Unknown, out.Result.Verdict, "lock edges %v", lockEdges)
		require.True(t, strings.HasPrefix(out.Result.Reason, twoThreadsNote+"the reduced projection (23 states"), out.Result.Reason)
		require.NotContains(t, out.Result.Reason, "which is no proof")
	}
}

// TestPairProductsDecideTwoBusyThreads: with two threads that can conflict
// (a third only takes a private lock), the pairs decide the whole question
// when the product of all threads gave up (here on a one-state budget;
// each pair gets at least 20,000).
func TestPairProductsDecideTwoBusyThreads(t *testing.T) {
	// T1's transaction reads x and z holding m; T2 writes x holding m,
	// then z without it: the lock-free check's chain needs T2's write of x
	// inside T1's section. T3 only takes a lock of its own.
	src := "T1|acq(m)\nT1|begin\nT1|r(x)\nT1|r(z)\nT1|end\nT1|rel(m)\n" +
		"T2|begin\nT2|acq(m)\nT2|w(x)\nT2|rel(m)\nT2|end\nT2|w(z)\nT3|acq(n)\nT3|rel(n)\n"
	out := predictString(t, src, Options{Tuning: tuning.Limits{Budget: 1}})
	require.Equal(t, engines.Serializable, out.Result.Verdict, out.Result.Reason)
	require.Contains(t, out.Result.Reason, pairsProvedNote)
}

// TestReducedKeepsForkAndJoinEdges: under lock edges a forked and joined
// thread whose events conflict with nothing still closes the cycle fork ->
// its transaction -> join. The reduced projection dropped its only
// transaction (no event of it conflicts across threads), so the product
// search, and brute on the same reduced program, answered serializable;
// the pair oracle (pairbrute_test.go) found this.
func TestReducedKeepsForkAndJoinEdges(t *testing.T) {
	src := "T0|begin\nT0|fork(T1)\nT1|begin\nT1|r(x)\nT1|end\nT0|join(T1)\nT0|end\n"
	for _, eng := range []string{"global", "brute"} {
		out := predictString(t, src, Options{Engine: eng, Check: engines.Options{LockEdges: true}})
		require.Equal(t, engines.Violation, out.Result.Verdict, eng)
		out = predictString(t, src, Options{Engine: eng})
		require.Equal(t, engines.Serializable, out.Result.Verdict, eng)
	}
}

// TestPairProductsCountForkedThreads: under lock edges a forked and joined
// thread whose accesses conflict with nothing is still busy (its empty
// transaction closes the cycle fork -> it -> join), so the pairs find the
// violation instead of proving the trace free with one busy thread.
func TestPairProductsCountForkedThreads(t *testing.T) {
	src := "T0|begin\nT0|fork(T1)\nT1|begin\nT1|r(x)\nT1|end\nT0|join(T1)\nT0|end\n"
	p := testPredictor(t, src, Options{Check: engines.Options{LockEdges: true}, Unbounded: true})
	out, pp, err := p.pairProducts(nil)
	require.NoError(t, err)
	require.Equal(t, 2, pp.busy)
	require.NotNil(t, out)
	require.Equal(t, engines.Violation, out.Result.Verdict)
}
