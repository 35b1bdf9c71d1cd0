package pass

import (
	"sort"

	"github.com/conc-dev/conc/monitor/atomicity"
	"github.com/conc-dev/conc/trace"
)

// window is the lazy blamer's memory (blame.go): the events from
// the begin of the oldest transaction open at the last batch's end on.
type window struct {
	batches [][]trace.Event
	skip    int   // events of batches[0] before the window's start
	dropped int64 // events dropped from its front so far
}

// push appends a batch.
func (w *window) push(evs []trace.Event) {
	if len(evs) > 0 {
		w.batches = append(w.batches, evs)
	}
}

// trim drops the events before line at, handing emptied batches to free.
func (w *window) trim(at int64, free func([]trace.Event)) {
	for len(w.batches) > 0 {
		evs := w.batches[0][w.skip:]
		n := sort.Search(len(evs), func(i int) bool { return evs[i].Line >= at })
		w.dropped += int64(n)
		if n < len(evs) {
			w.skip += n
			return
		}
		free(w.batches[0])
		w.batches[0] = nil
		w.batches, w.skip = w.batches[1:], 0
	}
}

// replay steps the window's events into k and empties it. A transaction
// open at its start (which ended before the conflict graph's cycle, or it
// would be open still) comes without its begin: the tracker ignores its
// end, and takes its events as unary ones and a block nested in it as a
// transaction, which cannot be broken (it would make the one around it
// broken before the cycle). Slots are independent, so this changes
// nothing for the transactions it tracks.
func (w *window) replay(k *atomicity.Tracker, free func([]trace.Event)) {
	for i, batch := range w.batches {
		k.StepAll(batch[w.skip:])
		free(batch)
		w.batches[i], w.skip = nil, 0
	}
	w.batches = w.batches[:0]
}
