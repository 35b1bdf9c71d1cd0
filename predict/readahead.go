package predict

import (
	"github.com/conc-dev/conc/trace"
)

// Parsing the trace and the first pass's own work (spool and summary) take
// about the same time per event, so collect parses on its own goroutine, a
// few batches ahead: on two cores the pass costs the slower of the two
// instead of their sum. Batches are consumed in order, so nothing else
// changes.

// eventBatch is a batch of events as Reader.Read returned it.
type eventBatch struct {
	evs []trace.Event
	err error
}

// readAheadDepth is how many parsed batches may wait.
const readAheadDepth = 3

// readAhead is a reader of r on its own goroutine. The consumer takes
// batches from full and hands each back through free; stop ends the
// goroutine early, and the reader's tables may be used once done is closed.
type readAhead struct {
	full chan eventBatch
	free chan []trace.Event
	stop chan struct{}
	done chan struct{}
}

func startReadAhead(r *trace.Reader) *readAhead {
	ra := &readAhead{full: make(chan eventBatch, readAheadDepth), free: make(chan []trace.Event, readAheadDepth+1),
		stop: make(chan struct{}), done: make(chan struct{})}
	for range readAheadDepth + 1 {
		ra.free <- make([]trace.Event, 4096)
	}
	go ra.pump(r)
	return ra
}

func (ra *readAhead) pump(r *trace.Reader) {
	defer close(ra.done)
	defer close(ra.full)
	for {
		var buf []trace.Event
		select {
		case buf = <-ra.free:
		case <-ra.stop:
			return
		}
		n, err := r.Read(buf)
		select {
		case ra.full <- eventBatch{buf[:n], err}:
		case <-ra.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// close stops the goroutine and waits for it.
func (ra *readAhead) close() {
	close(ra.stop)
	<-ra.done
}
