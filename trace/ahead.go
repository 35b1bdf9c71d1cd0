package trace

import "io"

// Ahead fills batches of events on its own goroutine, a few batches ahead
// of the consumer. Parsing a trace (or decoding a spool of one) costs about
// as much per event as most passes over it, so on two cores a pass then
// costs the slower of the two instead of their sum. Batches arrive in
// order, so nothing else changes.
type Ahead struct {
	full chan aheadBatch
	free chan []Event
	stop chan struct{}
	done chan struct{}
	cur  aheadBatch
	i    int
}

type aheadBatch struct {
	evs []Event
	err error
}

const (
	aheadDepth = 3    // batches that may wait for the consumer
	aheadLen   = 4096 // events a batch
)

// ReadAhead starts fill on its own goroutine. fill works as Reader.Read
// does: it fills a prefix of its argument and reports io.EOF (or another
// error) with the last events. Close must be called when the consumer
// stops, early or not; fill's source may be used again after it.
func ReadAhead(fill func([]Event) (int, error)) *Ahead {
	a := &Ahead{full: make(chan aheadBatch, aheadDepth), free: make(chan []Event, aheadDepth+1),
		stop: make(chan struct{}), done: make(chan struct{})}
	for range aheadDepth + 1 {
		a.free <- make([]Event, aheadLen)
	}
	go a.pump(fill)
	return a
}

func (a *Ahead) pump(fill func([]Event) (int, error)) {
	defer close(a.done)
	defer close(a.full)
	for {
		var buf []Event
		select {
		case buf = <-a.free:
		case <-a.stop:
			return
		}
		n, err := fill(buf)
		select {
		case a.full <- aheadBatch{buf[:n], err}:
		case <-a.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// Batch returns the next batch, valid until the next call, and the error
// that ended the input with it (io.EOF at the end); after an error there
// are no more batches.
func (a *Ahead) Batch() ([]Event, error) {
	if a.cur.evs != nil {
		a.free <- a.cur.evs[:cap(a.cur.evs)]
	}
	b, ok := <-a.full
	if !ok {
		b = aheadBatch{err: io.EOF}
	}
	a.cur, a.i = b, 0
	return b.evs, b.err
}

// Next copies the next event into ev, or returns the error that ended the
// input (io.EOF at the end): Batch one event at a time.
func (a *Ahead) Next(ev *Event) error {
	for a.i == len(a.cur.evs) {
		if a.cur.err != nil {
			return a.cur.err
		}
		a.Batch()
	}
	*ev = a.cur.evs[a.i]
	a.i++
	return nil
}

// Close stops the goroutine and waits for it.
func (a *Ahead) Close() {
	close(a.stop)
	<-a.done
}
