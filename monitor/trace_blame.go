package monitor

import (
	"github.com/conc-dev/conc/monitor/atomicity"
	"github.com/conc-dev/conc/trace"
)

// blamer runs an atomicity tracker (which transactions are broken by
// themselves) on its own goroutine, over copies of the batches the
// conflict-graph monitor steps, so that the two passes overlap (with the
// reader's, three goroutines share two cores: docs/traces.md, "Broken
// transactions", gives the cost).
type blamer struct {
	k    *atomicity.Tracker
	in   chan []trace.Event
	free chan []trace.Event
	done chan struct{}
}

// blamerDepth is how many batches may wait for the tracker.
const blamerDepth = 4

func newBlamer(opts atomicity.Options) *blamer {
	b := &blamer{k: atomicity.New(opts), in: make(chan []trace.Event, blamerDepth),
		free: make(chan []trace.Event, blamerDepth+1), done: make(chan struct{})}
	for range blamerDepth + 1 {
		b.free <- nil
	}
	go func() {
		defer close(b.done)
		for evs := range b.in {
			b.k.StepAll(evs)
			b.free <- evs
		}
	}()
	return b
}

// step hands the tracker a copy of evs.
func (b *blamer) step(evs []trace.Event) {
	if len(evs) == 0 {
		return
	}
	buf := append((<-b.free)[:0], evs...)
	b.in <- buf
}

// finish waits for the tracker and returns its answer.
func (b *blamer) finish() atomicity.Result {
	close(b.in)
	<-b.done
	return b.k.Finish()
}
