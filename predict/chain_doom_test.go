package predict

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/trace"
)

// TestLockDoomOnlyRefused: whenever the lock check stops planning the
// normal run (c.doomed), the run planned without it is refused by verify
// with the locks kept, so step 2 answers as before; and the check applies
// often on random locked traces. 300 traces in the quick suite, 3,000
// with CONC_LONG=1, both semantics.
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
		if c.doomed {
			doomed++
			_, accepted, err := p.checked(pl, normalRunNote)
			require.NoError(t, err)
			require.False(t, accepted, "seed %d: a doomed normal run replays\n%s", seed, src)
		}
	}
	t.Logf("%d of %d traces with a normal run, %d of them doomed", found, n, doomed)
	require.Greater(t, doomed, found/10)
}
