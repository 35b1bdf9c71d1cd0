package all

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/predict/internal/tuning"
	"github.com/conc-dev/conc/trace"
)

// allWithin runs All on an STD text under a deadline, and reports how
// long it took.
func allWithin(t *testing.T, src string, o predict.Options, d time.Duration) (*Outcome, time.Duration) {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	a, err := Find(ctx, r, o)
	require.NoError(t, err)
	t.Cleanup(func() { a.Close() })
	return a, time.Since(start)
}

// TestAllDeadlineAfterScanHit: 5,000 threads of `begin r(x) w(x) end`,
// any two of which violate. Under a deadline (no default chain budget)
// --all's scan meets every access until the deadline stops it; the group
// it found then still gets its witness (finding one chain again is
// bounded work), so the answer is that violation, not an internal error
// from a chain search that refuses to run past the deadline.
func TestAllDeadlineAfterScanHit(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "T%d|begin\nT%[1]d|r(x)\nT%[1]d|w(x)\nT%[1]d|end\n", i)
	}
	// The deadline must come after the trace is read, while the scan
	// runs: on a loaded machine reading can take longer than 50 ms, so
	// the deadline grows until it does.
	var a *Outcome
	var took time.Duration
	for d := 50 * time.Millisecond; ; d *= 2 {
		a, took = allWithin(t, b.String(), predict.Options{}, d)
		if a.Result.Verdict != engines.Unknown || d > 10*time.Second {
			break
		}
	}
	require.Equal(t, engines.Violation, a.Result.Verdict, a.Result.Reason)
	require.Equal(t, "deadline reached (--timeout)", a.Incomplete)
	w, err := a.Witness(0)
	require.NoError(t, err)
	require.NotNil(t, w)
	require.Less(t, took, 20*time.Second)
}

// forkChain is a chain of n forks between T0's read of x and its write,
// with the last thread's write of x: the observed order violates.
func forkChain(n int) string {
	var b strings.Builder
	b.WriteString("T0|begin\nT0|r(x)\n")
	for i := range n {
		fmt.Fprintf(&b, "T%d|fork(T%d)\n", i, i+1)
	}
	fmt.Fprintf(&b, "T%d|w(x)\nT0|w(x)\nT0|end\n", n)
	return b.String()
}

// TestForkChainObservedFast: a fork chain of 10,000 threads, which the
// observed order already violates, is answered as observed, allocating
// little: the vector clocks of the two-thread finders and of the trim
// (threads² words) took 2.4 GB and 7 s on it.
func TestForkChainObservedFast(t *testing.T) {
	src := forkChain(10_000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out := predictString(t, src, predict.Options{})
	runtime.ReadMemStats(&after)
	require.Equal(t, engines.Violation, out.Result.Verdict)
	require.Contains(t, out.Result.Reason, "the trace as observed is not serializable")
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(200<<20))
	a := allString(t, src, predict.Options{})
	require.Equal(t, engines.Violation, a.Result.Verdict)
	require.Equal(t, predict.ManyThreadsNote, a.Incomplete)
}

// TestAllDeepNestingBudgets: 10,000 nested locks around one read. The
// linear decision's histories, a depth per inner lock, grow with the depth
// (they were lock pairs, 5·10⁷ of them): under a 1 s deadline --all
// decides completely (under 5 s it took 14–25 s and stopped at the
// deadline), and an index limit below the histories' size still stops the
// decision early, allocating little, the groups said to be incomplete.
// Either way the violation predict finds stands.
func TestAllDeepNestingBudgets(t *testing.T) {
	src := projtest.DeepNesting(10_000)
	a, took := allWithin(t, src, predict.Options{}, time.Second)
	require.Equal(t, engines.Violation, a.Result.Verdict)
	require.Empty(t, a.Incomplete)
	require.Less(t, took, 5*time.Second)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	a = allString(t, src, predict.Options{Tuning: tuning.Limits{MaxNest: 500}})
	runtime.ReadMemStats(&after)
	require.Equal(t, engines.Violation, a.Result.Verdict)
	require.Contains(t, a.Incomplete, "the linear two-thread decision stopped at its limits")
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(300<<20))
}

// TestAllFreesForkContext: T0 forks T3 while holding m0 and releases it
// later; T3's transaction writes x0, then takes m0 and reads x0, and T1
// writes x0 in between. The group `w x0 r x0` is realisable (T0 goes on
// to release m0 before T3 needs it), but its patterns' context C, what
// happens before T1's and T3's forks, left T0 holding m0, and the run
// deadlocked: the group was dropped (found on nestedTrace's shapes, 1 of
// 3,000). The context now moves T0 on to release it.
func TestAllFreesForkContext(t *testing.T) {
	src := "T0|fork(T1)\nT1|begin\nT0|acq(m0)\nT0|fork(T2)\nT1|w(x0)\nT0|fork(T3)\nT3|begin\n" +
		"T0|w(x0)\nT3|w(x0)\nT0|rel(m0)\nT3|acq(m0)\nT3|w(x0)\nT3|r(x0)\nT1|end\n"
	a := allString(t, src, predict.Options{})
	require.Equal(t, engines.Violation, a.Result.Verdict)
	var sigs []string
	for k, g := range a.Groups {
		w, err := a.Witness(k)
		require.NoError(t, err)
		require.NotNil(t, w, "group %s dropped", g.Signature)
		requireSTDRoundTrip(t, src, w, false)
		sigs = append(sigs, g.Signature)
	}
	require.Contains(t, sigs, "w x0 r x0")
	require.Zero(t, a.Dropped())
}
