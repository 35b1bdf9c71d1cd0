package monitor

import (
	"github.com/conc-dev/conc/monitor/atomicity"
	"github.com/conc-dev/conc/trace"
)

// blamer runs an atomicity tracker (which transactions are broken by
// themselves) on its own goroutine, over copies of the batches the
// conflict-graph monitor steps, so that the two passes overlap.
//
// It starts the tracker only when it must. A transaction broken by itself
// lies on a cycle of the conflict graph from the event that breaks it on
// (its interrupting path, transaction by transaction, is one), so before
// the graph's first cycle no transaction is broken, and none that ended
// before it ever will be. Until then the blamer only keeps the batches
// since the begin of the oldest transaction open at a batch's end (the
// window): no event before it knows of a transaction open then, so a
// tracker started fresh at the window's start decides every transaction
// that can still be broken exactly as one that read the whole trace
// (window.replay says why the transactions open at the window's start,
// which ended before the cycle, do no harm). The monitor says, with each
// batch, whether the graph had a cycle by its end; the blamer then replays
// the window into a tracker and goes on eagerly, as it also does once the
// window holds more than maxWindow events (a transaction open for most of
// the trace). On a serializable trace of short transactions the tracker
// never runs.
type blamer struct {
	opts atomicity.Options
	k    *atomicity.Tracker // nil while lazy
	w    window
	// replayedOpen: the replay left out transactions open at the
	// window's start (the tests' witness that the case occurs)
	replayedOpen bool
	maxWindow    int
	in           chan blameBatch
	free         chan []trace.Event
	done         chan struct{}
}

// blameBatch is a batch for the tracker's goroutine, and whether the
// conflict graph had a cycle by its end.
type blameBatch struct {
	evs   []trace.Event
	cycle bool
}

// blamerDepth is how many batches may wait for the tracker.
const blamerDepth = 4

// defaultMaxWindow bounds the events the blamer keeps while lazy (32
// bytes each).
const defaultMaxWindow = 1 << 18

func newBlamer(opts atomicity.Options) *blamer {
	b := &blamer{opts: opts, maxWindow: defaultMaxWindow, in: make(chan blameBatch, blamerDepth),
		free: make(chan []trace.Event, blamerDepth+1), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		for bb := range b.in {
			b.take(bb)
		}
	}()
	return b
}

// step hands the tracker a copy of evs; cycle says whether the conflict
// graph had a cycle by evs' last event.
func (b *blamer) step(evs []trace.Event, cycle bool) {
	if len(evs) == 0 && !cycle {
		return
	}
	var buf []trace.Event
	select {
	case buf = <-b.free:
	default:
	}
	b.in <- blameBatch{append(buf[:0], evs...), cycle}
}

// take is the tracker goroutine's work on one batch.
func (b *blamer) take(bb blameBatch) {
	if b.k != nil {
		b.k.StepAll(bb.evs)
		b.recycle(bb.evs)
		return
	}
	b.w.push(bb.evs)
	if bb.cycle || b.w.events > b.maxWindow {
		b.k = atomicity.New(b.opts)
		b.w.replay(b.k, b.recycle)
		return
	}
	b.w.trim(b.recycle)
}

// recycle hands a batch's buffer back to step, or to the collector.
func (b *blamer) recycle(evs []trace.Event) {
	select {
	case b.free <- evs[:0]:
	default:
	}
}

// finish waits for the tracker and returns its answer: none broken if
// it never had to start.
func (b *blamer) finish() atomicity.Result {
	close(b.in)
	<-b.done
	if b.k == nil {
		return atomicity.Result{}
	}
	return b.k.Finish()
}
