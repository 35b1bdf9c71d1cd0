package monitor

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// mainWorkers draws a trace of the shape contraction is for: a main
// thread's transaction stays open while workers (forked and joined by it)
// run transactions that mostly begin with a read of its inputs, write a
// scratch variable of their own (so that a worker's earlier transactions
// are named by no record), and read and write outputs, which the main
// thread reads, now and then during the run (closing cycles early) and at
// its end.
func mainWorkers(rng *rand.Rand) []trace.Event {
	workers := 1 + rng.IntN(3)
	inputs, outputs := 1+rng.IntN(3), 1+rng.IntN(6)
	scratch := func(w int) int32 { return int32(inputs + w) }
	output := func(j int) int32 { return int32(inputs + workers + 1 + j) }
	line := int64(0)
	var evs []trace.Event
	add := func(th int32, op model.Op, target int32) {
		line++
		evs = append(evs, trace.Event{Thread: th, Op: op, Target: target, Loc: -1, Line: line})
	}
	add(0, model.OpBegin, -1)
	for i := range inputs {
		add(0, model.OpWrite, int32(i))
	}
	for w := 1; w <= workers; w++ {
		add(0, model.OpFork, int32(w))
	}
	open := make([]bool, workers+1)
	for range 20 + rng.IntN(60) {
		w := int32(1 + rng.IntN(workers))
		switch r := rng.IntN(10); {
		case r == 0:
			add(0, model.OpRead, output(rng.IntN(outputs)))
		case !open[w]:
			add(w, model.OpBegin, -1)
			open[w] = true
			if r < 6 {
				add(w, model.OpRead, int32(rng.IntN(inputs)))
			}
		case r < 2:
			add(w, model.OpRead, output(rng.IntN(outputs)))
		case r < 4:
			add(w, model.OpWrite, scratch(int(w)))
		case r < 6:
			add(w, model.OpWrite, output(rng.IntN(outputs)))
		default:
			add(w, model.OpEnd, -1)
			open[w] = false
		}
	}
	for w := 1; w <= workers; w++ {
		if open[w] {
			add(int32(w), model.OpEnd, -1)
		}
		add(0, model.OpJoin, int32(w))
	}
	for j := range outputs {
		add(0, model.OpRead, output(j))
	}
	add(0, model.OpEnd, -1)
	return evs
}

// TestContractionAgainstNaive: on random main-and-workers traces, with
// only the first cycle spelled out (conc monitor's default) and the graph
// collected after almost every transaction (with reachability bits for
// every open transaction, and with none), so that chains merge before
// the first cycle and components contract after it, the monitor's first
// violating line and count of transactions on a cycle equal the naive
// computation's, and the cycle it lists is a real one; both before the
// first cycle and after it, contraction happens.
func TestContractionAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 24))
	before, after := int64(0), int64(0)
	for i := range testflag.N(400, 3000) {
		evs := mainWorkers(rng)
		for k := range 4 {
			lockEdges, free := k%2 == 1, ^uint64(0)>>(k/2*64) // with reachability bits, and without
			want := naiveCheck(evs, lockEdges)
			m := NewTraceMonitor(TraceOptions{LockEdges: lockEdges, MaxCycle: 1000, MaxViolations: 1})
			m.gcMin, m.gcAt, m.free = 1, 1, free
			pre := int64(0)
			for _, e := range evs {
				if m.Step(e); m.first == 0 {
					pre = m.stats.Contracted
				}
			}
			before += pre
			got := m.Finish()
			after += got.Stats.Contracted
			ctx := fmt.Sprintf("trace %d lockEdges=%v slots %x\n%s", i, lockEdges, free, fmtTrace(evs))
			require.Equal(t, want.first, got.First, ctx)
			require.EqualValues(t, len(want.cyclic), got.Count, ctx)
			for _, v := range got.Violations {
				checkReportedCycle(t, want, v, lockEdges, ctx)
			}
		}
	}
	require.Positive(t, before, "no chain merged before the first cycle")
	require.Greater(t, after, before, "nothing contracted after the first cycle")
}
