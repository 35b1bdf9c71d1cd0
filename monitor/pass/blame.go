package pass

import (
	"sort"

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
// before it ever will be. Until then the blamer keeps only the events
// since the begin of the oldest transaction open at a batch's end (the
// window; the monitor knows that begin: TraceMonitor.OldestOpen): no event before it
// knows of a transaction open then, so a tracker started fresh at the
// window's start decides every transaction that can still be broken
// exactly as one that read the whole trace (window.replay says why the
// transactions open at the window's start, which ended before the cycle,
// do no harm). Once the monitor has seen a cycle, the whole batch goes
// over, the blamer replays the window into a tracker and goes on eagerly,
// as it also does once the window spans more than maxWindow lines (a
// transaction open for most of the trace). On a serializable trace of
// short transactions the tracker never runs, and only a batch's last
// events are copied.
type blamer struct {
	opts      atomicity.Options
	maxWindow int64
	eager     bool // the monitor's side: every event goes over from now on
	// The tracker goroutine's side:
	k    *atomicity.Tracker // nil while lazy
	w    window
	in   chan blameBatch
	free chan []trace.Event
	done chan struct{}
}

// blameBatch is what the tracker's goroutine gets of a batch: its events
// from start on (all of them once eager), start being the window's start
// at the batch's end.
type blameBatch struct {
	evs   []trace.Event
	start int64
	eager bool
}

// blamerDepth is how many batches may wait for the tracker.
const blamerDepth = 4

// defaultMaxWindow bounds the lines the window spans while lazy, and so
// the events it keeps (32 bytes each).
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

// step hands the tracker's goroutine what it needs of evs: cycle says
// whether the conflict graph had a cycle by evs' last event, start is the
// begin of the oldest transaction open then (monitor.TraceMonitor.OldestOpen).
func (b *blamer) step(evs []trace.Event, cycle bool, start int64) {
	if len(evs) == 0 {
		return
	}
	if !b.eager {
		last := evs[len(evs)-1].Line
		b.eager = cycle || start <= last && last-start > b.maxWindow
	}
	if !b.eager {
		evs = evs[sort.Search(len(evs), func(i int) bool { return evs[i].Line >= start }):]
	}
	var buf []trace.Event
	select {
	case buf = <-b.free:
	default:
	}
	b.in <- blameBatch{append(buf[:0], evs...), start, b.eager}
}

// take is the tracker goroutine's work on one batch.
func (b *blamer) take(bb blameBatch) {
	switch {
	case b.k != nil:
		b.k.StepAll(bb.evs)
		b.recycle(bb.evs)
	case bb.eager:
		b.w.push(bb.evs)
		b.k = atomicity.New(b.opts)
		b.w.replay(b.k, b.recycle)
	default:
		b.w.push(bb.evs)
		b.w.trim(bb.start, b.recycle)
	}
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
