package gen

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// TestLockedSerializableOnlyWithLocks checks the locked family's claim: the
// programs are serializable, and only because of their locks.
func TestLockedSerializableOnlyWithLocks(t *testing.T) {
	for _, c := range []struct{ k, n, l int }{{2, 1, 1}, {2, 4, 1}, {2, 3, 2}, {3, 3, 1}, {3, 4, 2}, {4, 2, 3}} {
		t.Run(fmt.Sprintf("k=%d/n=%d/l=%d", c.k, c.n, c.l), func(t *testing.T) {
			p := compile(t, Locked(c.k, c.n, c.l))
			require.Len(t, p.Threads, c.k)
			require.Len(t, p.Locks, c.l)
			require.Equal(t, engines.Serializable, decide(t, "global", p, engines.Options{}).Verdict)
			require.Equal(t, engines.Violation, decide(t, "profile", model.DropSync(p), engines.Options{}).Verdict)
		})
	}
}

// TestLockedProductGrows checks that the global engine's state count grows
// with n at a fixed k (the family exists to show Theorem 4's n^k).
func TestLockedProductGrows(t *testing.T) {
	prev := int64(0)
	for _, n := range []int{2, 4, 8} {
		res := decide(t, "global", compile(t, Locked(3, n, 1)), engines.Options{})
		require.Greater(t, res.Stats.States, 2*prev, "n=%d", n)
		prev = res.Stats.States
	}
}

// TestLockedBrute cross-checks a small instance with the enumerating engine.
func TestLockedBrute(t *testing.T) {
	p := compile(t, Locked(2, 2, 1))
	require.Equal(t, engines.Serializable, decide(t, "brute", p, engines.Options{MaxDepth: 64}).Verdict)
}
