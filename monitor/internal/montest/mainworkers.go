package montest

import (
	"math/rand/v2"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// MainWorkers draws a trace of the shape contraction is for: a main
// thread's transaction stays open while workers (forked and joined by it)
// run transactions that mostly begin with a read of its inputs, write a
// scratch variable of their own (so that a worker's earlier transactions
// are named by no record), and read and write outputs, which the main
// thread reads, now and then during the run (closing cycles early) and at
// its end. Between their transactions, workers read inputs and write
// outputs outside any (unary transactions).
func MainWorkers(rng *rand.Rand) []trace.Event {
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
		case !open[w] && r == 8: // unary events, as jgf-crypt's workers'
			add(w, model.OpRead, int32(rng.IntN(inputs)))
		case !open[w] && r == 9:
			add(w, model.OpWrite, output(rng.IntN(outputs)))
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
