package report

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// TestWindowLeanAsSpelledOut: a window of a lean report (transactions
// counted by model.TxnCounter as it passes) equals that of the report
// spelled out (transactions read off Run), and each shown event is what
// a naive reading of the rule says: every event when the run fits the
// limit; otherwise the cycle's events, the first and last events of its
// transactions, and any event with fewer than lead events of its thread
// between it and its thread's next cycle event.
func TestWindowLeanAsSpelledOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 18))
	for range testflag.N(300, 3000) {
		p, res := randomWitness(rng)
		full, err := Build(p, res)
		require.NoError(t, err)
		lean, err := BuildLean(p, res)
		require.NoError(t, err)
		for _, limit := range []int{0, 5, 1000} {
			lead := rng.IntN(4)
			got := lean.Witness.Window(limit, lead)
			require.Equal(t, full.Witness.Window(limit, lead), got, "limit %d lead %d", limit, lead)
			checkWindow(t, full.Witness, got, limit, lead)
		}
	}
}

// checkWindow holds a window to the rule, read naively off the spelled-out
// witness w.
func checkWindow(t *testing.T, w *Witness, got []Shown, limit, lead int) {
	want := map[int]bool{}
	for i := range w.Run {
		want[i] = len(w.Run) <= limit || naiveShown(w, i, lead)
	}
	for _, x := range w.Txns {
		want[x.Events[0]], want[x.Events[len(x.Events)-1]] = true, true
	}
	nth := map[int]int{}
	for _, x := range w.Txns {
		if x.ID >= 0 {
			nth[x.ID] = x.Nth
		}
	}
	k := 0
	for i, e := range w.Run {
		if !want[i] {
			continue
		}
		require.Less(t, k, len(got), "event %d not shown", i)
		s := got[k]
		require.Equal(t, i, s.Index)
		require.Equal(t, e, s.Event)
		if n, ok := nth[e.Txn]; ok {
			require.Equal(t, n, s.Nth, "event %d: ordinal of its transaction", i)
		}
		k++
	}
	require.Equal(t, len(got), k, "events shown that the rule does not show")
}

// naiveShown: i is on the cycle, or fewer than lead events of its thread
// lie between it and its thread's next cycle event.
func naiveShown(w *Witness, i, lead int) bool {
	if w.Run[i].OnCycle {
		return true
	}
	between := 0
	for j := i + 1; j < len(w.Run); j++ {
		if w.Run[j].Thread != w.Run[i].Thread {
			continue
		}
		if w.Run[j].OnCycle {
			return between < lead
		}
		between++
	}
	return false
}
