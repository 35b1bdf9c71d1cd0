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

// spoolAhead decodes a spool on its own goroutine, a few batches ahead of
// the pass that reads it (the scan: decoding and scanning cost about the
// same per event). close must be called when the pass ends, early or not.
type spoolAhead struct {
	full chan eventBatch
	free chan []trace.Event
	stop chan struct{}
	done chan struct{}
	cur  eventBatch
	i    int
}

func (s *spool) readAhead() *spoolAhead {
	a := &spoolAhead{full: make(chan eventBatch, readAheadDepth), free: make(chan []trace.Event, readAheadDepth+1),
		stop: make(chan struct{}), done: make(chan struct{})}
	for range readAheadDepth + 1 {
		a.free <- make([]trace.Event, 4096)
	}
	go a.pump(s.reader())
	return a
}

func (a *spoolAhead) pump(r *spoolReader) {
	defer close(a.done)
	for {
		var buf []trace.Event
		select {
		case buf = <-a.free:
		case <-a.stop:
			return
		}
		n, err := 0, error(nil)
		for n < len(buf) {
			if err = r.next(&buf[n]); err != nil {
				break
			}
			n++
		}
		select {
		case a.full <- eventBatch{buf[:n], err}:
		case <-a.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// next is spoolReader.next over the decoded batches.
func (a *spoolAhead) next(ev *trace.Event) error {
	for a.i == len(a.cur.evs) {
		if a.cur.err != nil {
			return a.cur.err
		}
		if a.cur.evs != nil {
			a.free <- a.cur.evs[:cap(a.cur.evs)]
		}
		a.cur, a.i = <-a.full, 0
	}
	*ev = a.cur.evs[a.i]
	a.i++
	return nil
}

// close stops the decoding goroutine and waits for it.
func (a *spoolAhead) close() {
	close(a.stop)
	<-a.done
}
