package atomicity

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// wideTrace draws a trace in which 65 to 140 transactions are open at once
// (so slots past the first 64 are used, and used again): every thread
// begins one, then random threads access random variables, end theirs and
// begin again.
func wideTrace(rng *rand.Rand) []trace.Event {
	threads := 65 + rng.IntN(76)
	vars := 1 + rng.IntN(6)
	var evs []trace.Event
	line := int64(0)
	add := func(t int32, op model.Op, target int32) {
		line++
		evs = append(evs, trace.Event{Thread: t, Op: op, Target: target, Loc: -1, Line: line})
	}
	open := make([]bool, threads)
	for t := range threads {
		add(int32(t), model.OpBegin, -1)
		open[t] = true
	}
	for range 3 * threads {
		t := int32(rng.IntN(threads))
		switch r := rng.IntN(10); {
		case r == 0 && open[t]:
			add(t, model.OpEnd, -1)
			open[t] = false
		case r == 0:
			add(t, model.OpBegin, -1)
			open[t] = true
		case r < 4:
			add(t, model.OpWrite, int32(rng.IntN(vars)))
		default:
			add(t, model.OpRead, int32(rng.IntN(vars)))
		}
	}
	return evs
}

// TestTrackerWideAgainstBrute: with more transactions open at once than
// one word of slots holds, the broken transactions are still exactly the
// definition's, and every explanation a real path.
func TestTrackerWideAgainstBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 140))
	for i := range testflag.N(6, 40) {
		evs := wideTrace(rng)
		want, _ := bruteBroken(evs, false)
		got := track(evs, false)
		ctx := fmt.Sprintf("wide trace %d", i)
		require.Equal(t, int64(len(want)), got.Count, ctx)
		for _, b := range got.Broken {
			require.True(t, want[b.Begin], ctx)
			checkPath(t, evs, b, false, ctx)
		}
		require.NotZero(t, got.Count, ctx)
	}
}
