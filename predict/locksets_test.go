package predict

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/trace"
)

// TestLocksProtectAgreesWithBrute: whenever the critical-section proof
// applies to a random locked trace (trace.Gen: transactions take one lock,
// some accesses ignore it), brute finds the projection serializable, and
// auto gives brute's verdict. The proof must apply often, and often where
// the lock-free check alone sees a violation (where it saves the search).
// 150 traces in the quick suite, 600 with CONC_LONG=1.
func TestLocksProtectAgreesWithBrute(t *testing.T) {
	n := testflag.N(150, 600)
	brute, err := engines.Lookup("brute")
	require.NoError(t, err)
	applied, needed := 0, 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		g := trace.NewGen(trace.GenOptions{Seed: seed, Events: 14 + int64(seed%12), Threads: 2 + int(seed%2),
			Vars: 1 + int(seed%3), Locks: 1 + int(seed/3%2), TxnLen: 3, Unprotected: float64(seed%4) / 8,
			Unary: 0.2, Nested: 0.1, Writes: 0.5, Fork: seed%5 == 0})
		var b strings.Builder
		_, err := g.WriteTo(&b)
		require.NoError(t, err)
		src := b.String()
		p := newTestPredictor(t, src, Options{})
		ok, err := p.s.ProtectedByLocks(p.sp, p.u)
		require.NoError(t, err)
		full := projectionOf(t, src)
		want, err := brute.Check(context.Background(), full, engines.Options{MaxDepth: 1000})
		require.NoError(t, err)
		require.NotEqual(t, engines.Unknown, want.Verdict)
		if ok {
			applied++
			require.Equal(t, engines.Serializable, want.Verdict, "seed %d: proof applies but brute finds a violation\n%s", seed, src)
			free, err := brute.Check(context.Background(), full, engines.Options{MaxDepth: 1000, IgnoreSync: true})
			require.NoError(t, err)
			if free.Verdict == engines.Violation {
				needed++
			}
		}
		got := predictString(t, src, Options{})
		require.Equal(t, want.Verdict, got.Result.Verdict, "seed %d\n%s", seed, src)
	}
	t.Logf("proof applied to %d of %d traces, %d of them violating without locks", applied, n, needed)
	require.Greater(t, applied, n/5)
	require.Greater(t, needed, n/20)
}

// TestLocksProtectRefuses: a transaction whose two accesses lie in two
// critical sections, or whose lock another thread's conflicting access does
// not take, is not covered by the proof; where it applies, the answer says
// so.
func TestLocksProtectRefuses(t *testing.T) {
	for name, src := range map[string]string{
		"guarded":      guarded,
		"two sections": "T1|begin\nT1|acq(m)\nT1|r(x)\nT1|rel(m)\nT1|acq(m)\nT1|w(x)\nT1|rel(m)\nT1|end\nT2|acq(m)\nT2|w(x)\nT2|rel(m)\n",
		"other lock":   "T1|begin\nT1|acq(m)\nT1|r(x)\nT1|w(x)\nT1|rel(m)\nT1|end\nT2|acq(n)\nT2|w(x)\nT2|rel(n)\n",
	} {
		p := newTestPredictor(t, src, Options{})
		ok, err := p.s.ProtectedByLocks(p.sp, p.u)
		require.NoError(t, err)
		require.Equal(t, name == "guarded", ok, name)
	}
	// Each answer without a search says which argument gave it.
	got := predictString(t, guarded, Options{})
	require.Equal(t, engines.Serializable, got.Result.Verdict)
	require.Equal(t, locksProtectNote, got.Result.Reason)
	got = predictString(t, "T1|acq(m)\nT1|begin\nT1|r(x)\nT1|w(x)\nT1|end\nT1|rel(m)\nT2|acq(m)\nT2|r(y)\nT2|rel(m)\n", Options{})
	require.Equal(t, engines.Serializable, got.Result.Verdict)
	require.Equal(t, prefilterNote, got.Result.Reason)
}

// TestLocksProtectOnePass: the lock sets come from the first pass, so the
// critical-section proof reads the spool once (it read it twice, the whole
// of it for the lock sets), and the guards are computed only for the
// letters it meets. Counted, not timed.
func TestLocksProtectOnePass(t *testing.T) {
	for _, src := range []string{guarded, lockedTrace(t, 2000)} {
		p := newTestPredictor(t, src, Options{})
		before := p.sp.Passes
		_, err := p.s.ProtectedByLocks(p.sp, p.u)
		require.NoError(t, err)
		require.Equal(t, 1, p.sp.Passes-before)
	}
}
