package predict

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/trace"
)

// TestLockDoomOnlyRefused: whenever the lock check stops planning the
// normal run (c.Doomed), the run planned without it is refused by verify
// with the locks kept, so step 2 answers as it would without the check;
// and the check applies often on random locked traces. 300 traces in the
// quick suite, 3,000 with CONC_LONG=1, both semantics.
func TestLockDoomOnlyRefused(t *testing.T) {
	n := testflag.N(300, 3000)
	doomed, found := 0, 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		g := trace.NewGen(trace.GenOptions{Seed: seed, Events: 20 + int64(seed%60), Threads: 2 + int(seed%3),
			Vars: 1 + int(seed%4), Locks: 1 + int(seed/3%3), TxnLen: 2 + int(seed%3), Unprotected: float64(seed%5) / 8,
			Unary: 0.2, Nested: 0.2, Writes: 0.5, Fork: seed%7 == 0})
		var b strings.Builder
		_, err := g.WriteTo(&b)
		require.NoError(t, err)
		src := b.String()
		o := Options{}
		o.Check.LockEdges = seed%2 == 1
		p := newTestPredictor(t, src, o)
		pl, ok, _, err := p.lockFreeFor(false)
		require.NoError(t, err)
		_, okLocked, c, err := p.lockFreeFor(true)
		require.NoError(t, err)
		require.Equal(t, ok, okLocked, "seed %d", seed)
		if !ok {
			continue
		}
		found++
		if c.Doomed {
			doomed++
			_, accepted, err := p.checked(pl, normalRunNote)
			require.NoError(t, err)
			require.False(t, accepted, "seed %d: a doomed normal run replays\n%s", seed, src)
		}
	}
	t.Logf("%d of %d traces with a normal run, %d of them doomed", found, n, doomed)
	require.Greater(t, doomed, found/10)
}

// TestLockDoomAfterLastEvent: a link thread's acquire after its last
// located event is not in the normal run, so it does not doom it, even when
// the pass goes on for a later link. Here T2 takes T1's lock after its two
// events and before T3's: the run T1 (holding l, up to r(x)), T2, T3, T1
// respects the lock and is the answer.
func TestLockDoomAfterLastEvent(t *testing.T) {
	src := "T2|w(x)\nT2|w(y)\nT2|acq(l)\nT2|rel(l)\n" +
		"T1|begin\nT1|acq(l)\nT1|r(x)\nT1|w(z)\nT1|rel(l)\nT1|end\n" +
		"T3|w(y)\nT3|w(z)\n"
	p := newTestPredictor(t, src, Options{})
	_, ok, c, err := p.lockFreeFor(true)
	require.NoError(t, err)
	require.True(t, ok)
	require.False(t, c.Doomed)
	got := predictString(t, src, Options{})
	require.Equal(t, engines.Violation, got.Result.Verdict)
	require.Equal(t, normalRunNote, got.Result.Reason)
}
