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

// TestTrackerStopsPastItsBudget: 12,000 threads that each open a
// transaction and read x, then each write x: every writer learns of every
// open transaction, work that grows with the square of the threads. The
// tracker stops at its budget and says so, and none of its partial
// answer is given as the answer.
func TestTrackerStopsPastItsBudget(t *testing.T) {
	const n = 12000
	var evs []trace.Event
	add := func(th int, op model.Op, target int32) {
		evs = append(evs, trace.Event{Thread: int32(th), Op: op, Target: target, Loc: -1, Line: int64(len(evs) + 1)})
	}
	for i := range n {
		add(i, model.OpBegin, -1)
		add(i, model.OpRead, 0)
	}
	for i := range n {
		add(i, model.OpWrite, 0)
		add(i, model.OpEnd, -1)
	}
	k := New(Options{})
	for i := 0; i < len(evs); i += 4096 {
		k.StepAll(evs[i:min(i+4096, len(evs))])
	}
	res := k.Finish()
	require.Contains(t, res.Stopped, "too many transactions open at once")
	require.Zero(t, res.Count)
	require.Empty(t, res.Broken)
	require.LessOrEqual(t, k.work, int64(workBase+workPerEvent*len(evs))+int64(64*(n/64+2)*4096), "the budget was overrun by more than a batch")
}
