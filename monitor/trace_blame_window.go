package monitor

import (
	"math"
	"sort"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// window is the lazy blamer's memory (trace_blame.go): the batches from
// the begin of the oldest transaction open at the last batch's end on,
// with each thread's nesting depth now.
type window struct {
	batches [][]trace.Event
	skip    int   // events of batches[0] before the window's start
	events  int   // events in the window
	dropped int64 // events dropped from its front so far
	depth   []int32
	begin   []int64 // per thread with depth > 0: its transaction's begin line
}

// push appends a batch, following the begins and ends in it.
func (w *window) push(evs []trace.Event) {
	w.batches = append(w.batches, evs)
	w.events += len(evs)
	for i := range evs {
		if ev := &evs[i]; ev.Op == model.OpBegin || ev.Op == model.OpEnd {
			w.nest(ev)
		}
	}
}

// nest follows a begin or end (nested ones flatten to the outermost).
func (w *window) nest(ev *trace.Event) {
	t := int(ev.Thread)
	for t >= len(w.depth) {
		w.depth, w.begin = append(w.depth, 0), append(w.begin, 0)
	}
	switch {
	case ev.Op == model.OpBegin:
		if w.depth[t]++; w.depth[t] == 1 {
			w.begin[t] = ev.Line
		}
	case w.depth[t] > 0: // a stray end is ignored, as the monitors do
		w.depth[t]--
	}
}

// start is the line the window may start at now: the oldest open
// transaction's begin, past every line if none is open.
func (w *window) start() int64 {
	at := int64(math.MaxInt64)
	for t, d := range w.depth {
		if d > 0 {
			at = min(at, w.begin[t])
		}
	}
	return at
}

// trim drops the events before start(), handing emptied batches to free.
func (w *window) trim(free func([]trace.Event)) {
	at := w.start()
	for len(w.batches) > 0 {
		evs := w.batches[0][w.skip:]
		n := sort.Search(len(evs), func(i int) bool { return evs[i].Line >= at })
		w.drop(evs[:n])
		if n < len(evs) {
			w.skip += n
			return
		}
		free(w.batches[0])
		w.batches[0] = nil
		w.batches, w.skip = w.batches[1:], 0
	}
}

// drop counts events leaving the window's front.
func (w *window) drop(evs []trace.Event) {
	w.events -= len(evs)
	w.dropped += int64(len(evs))
}

// stepper is what replay feeds: atomicity.Tracker.
type stepper interface{ StepAll([]trace.Event) }

// replay steps the window's events into k and empties it. A
// transaction open at its start (which ended before the conflict graph's
// cycle, or it would be open still) comes without its begin: the tracker
// ignores its end, and takes its events as unary ones and a block nested
// in it as a transaction, which cannot be broken (it would make the one
// around it broken before the cycle). Slots are independent, so this
// changes nothing for the transactions it tracks.
func (w *window) replay(k stepper, free func([]trace.Event)) {
	for i, batch := range w.batches {
		k.StepAll(batch[w.skip:])
		free(batch)
		w.batches[i], w.skip = nil, 0
	}
	w.batches, w.events = w.batches[:0], 0
}
