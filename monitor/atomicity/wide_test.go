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
	return wideTraceOf(rng, 65+rng.IntN(76), 1+rng.IntN(6), 30)
}

// wideTraceOf is wideTrace's shape with its threads, variables and
// writes in a hundred steps.
func wideTraceOf(rng *rand.Rand, threads, vars, writes int) []trace.Event {
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
		switch r := rng.IntN(100); {
		case r < 10 && open[t]:
			add(t, model.OpEnd, -1)
			open[t] = false
		case r < 10:
			add(t, model.OpBegin, -1)
			open[t] = true
		case r < 10+writes:
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

// TestTrackerManyReadersAgainstBrute: rare writes to two variables, so
// that many threads read one between writes (and read it again, knowing
// more): the reads past manyReads go through the index by thread.
func TestTrackerManyReadersAgainstBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 64))
	for i := range testflag.N(6, 40) {
		evs := manyReaders(rng, 60+rng.IntN(40))
		want, _ := bruteBroken(evs, false)
		got := track(evs, false)
		ctx := fmt.Sprintf("many readers %d", i)
		require.Equal(t, int64(len(want)), got.Count, ctx)
		for _, b := range got.Broken {
			require.True(t, want[b.Begin], ctx)
			checkPath(t, evs, b, false, ctx)
		}
	}
}

// manyReaders draws a trace in which variable 0 is read by many threads
// between its rare writes, while variables 1 and 2, written often, bring
// the readers news between their reads of 0.
func manyReaders(rng *rand.Rand, threads int) []trace.Event {
	var evs []trace.Event
	add := func(t int32, op model.Op, target int32) {
		evs = append(evs, trace.Event{Thread: t, Op: op, Target: target, Loc: -1, Line: int64(len(evs) + 1)})
	}
	open := make([]bool, threads)
	for range 4 * threads {
		t := int32(rng.IntN(threads))
		switch r := rng.IntN(100); {
		case r < 8:
			add(t, map[bool]model.Op{true: model.OpEnd, false: model.OpBegin}[open[t]], -1)
			open[t] = !open[t]
		case r < 30:
			add(t, model.OpWrite, 1+int32(rng.IntN(2)))
		case r < 31:
			add(t, model.OpWrite, 0)
		case r < 50:
			add(t, model.OpRead, 1+int32(rng.IntN(2)))
		default:
			add(t, model.OpRead, 0)
		}
	}
	return evs
}

// TestTrackerStopsPastItsBudget: 12,000 threads that each open a
// transaction and read x, then each write x: every writer learns of every
// open transaction, work that grows with the square of the threads. The
// tracker stops at its budget and says so, and none of its partial
// answer is given as the answer.
func TestTrackerStopsPastItsBudget(t *testing.T) {
	const n = 12000
	evs := readThenWrite(n)
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

// TestTrackerStopsWithinABatch: the trace of TestTrackerStopsPastItsBudget
// (8,000 threads) handed over in one batch: the tracker stops within the
// batch, past its budget by at most the work of one event (a write that
// receives every read, or an end that clears its slot in every thread).
func TestTrackerStopsWithinABatch(t *testing.T) {
	const n = 8000
	evs := readThenWrite(n)
	k := New(Options{})
	k.StepAll(evs)
	res := k.Finish()
	require.Contains(t, res.Stopped, "too many transactions open at once")
	require.Zero(t, res.Count)
	oneEvent := int64(128*n + 64*(n/64+2) + n)
	require.LessOrEqual(t, k.work, workBase+workPerEvent*int64(len(evs))+oneEvent, "the budget was overrun by more than one event")
}

// TestTrackerCountsWideMasks: 12,000 threads that each open a transaction
// and read a variable of their own, then end: no thread learns of another,
// but each thread's mask grows to its slot's word, memory and work that
// grow with the square of the threads. That counts in the budget too.
func TestTrackerCountsWideMasks(t *testing.T) {
	const n = 12000
	var evs []trace.Event
	add := func(th int, op model.Op, target int32) {
		evs = append(evs, trace.Event{Thread: int32(th), Op: op, Target: target, Loc: -1, Line: int64(len(evs) + 1)})
	}
	for i := range n {
		add(i, model.OpBegin, -1)
		add(i, model.OpRead, int32(i))
	}
	for i := range n {
		add(i, model.OpEnd, -1)
	}
	k := New(Options{})
	k.StepAll(evs)
	require.Contains(t, k.Finish().Stopped, "too many transactions open at once")
	require.LessOrEqual(t, k.work, workBase+workPerEvent*int64(len(evs))+int64(64*(n/64+2)))
}

// readThenWrite is the trace of the budget tests: n threads that each
// open a transaction and read x, then each write x and end.
func readThenWrite(n int) []trace.Event {
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
	return evs
}
