package trace

import "io"

// Ahead fills batches on its own goroutine, a few batches ahead of the
// consumer. Parsing a trace (or decoding a spool of one) costs about as
// much per event as most passes over it, so on two cores a pass then costs
// the slower of the two instead of their sum; and gzip's inflating, the
// slower half of reading a .gz trace, overlaps the scan of the previous
// chunk (asyncReader). Batches arrive in order, so nothing else changes.
type Ahead[T any] struct {
	full chan aheadBatch[T]
	free chan []T
	stop chan struct{}
	done chan struct{}
	cur  aheadBatch[T]
	i    int
}

type aheadBatch[T any] struct {
	evs []T
	err error
}

const (
	aheadDepth = 3    // batches of events that may wait for the consumer
	aheadLen   = 4096 // events a batch
)

// ReadAhead starts fill on its own goroutine. fill works as Reader.Read
// does: it fills a prefix of its argument and reports io.EOF (or another
// error) with the last events. Close must be called when the consumer
// stops, early or not; fill's source may be used again after it.
func ReadAhead[T any](fill func([]T) (int, error)) *Ahead[T] {
	return readAhead(aheadDepth, aheadLen, fill)
}

// readAhead is ReadAhead with depth batches of size elements.
func readAhead[T any](depth, size int, fill func([]T) (int, error)) *Ahead[T] {
	a := &Ahead[T]{full: make(chan aheadBatch[T], depth), free: make(chan []T, depth+1),
		stop: make(chan struct{}), done: make(chan struct{})}
	for range depth + 1 {
		a.free <- make([]T, size)
	}
	go a.pump(fill)
	return a
}

func (a *Ahead[T]) pump(fill func([]T) (int, error)) {
	defer close(a.done)
	defer close(a.full)
	for {
		var buf []T
		select {
		case buf = <-a.free:
		case <-a.stop:
			return
		}
		n, err := fill(buf)
		select {
		case a.full <- aheadBatch[T]{buf[:n], err}:
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
func (a *Ahead[T]) Batch() ([]T, error) {
	if a.cur.evs != nil {
		a.free <- a.cur.evs[:cap(a.cur.evs)]
	}
	b, ok := <-a.full
	if !ok {
		b = aheadBatch[T]{err: io.EOF}
	}
	a.cur, a.i = b, 0
	return b.evs, b.err
}

// Next copies the next element into ev, or returns the error that ended
// the input (io.EOF at the end): Batch one element at a time.
func (a *Ahead[T]) Next(ev *T) error {
	if err := a.wait(); err != nil {
		return err
	}
	*ev = a.cur.evs[a.i]
	a.i++
	return nil
}

// Read copies the next elements into p, as io.Reader does for bytes.
func (a *Ahead[T]) Read(p []T) (int, error) {
	if err := a.wait(); err != nil {
		return 0, err
	}
	n := copy(p, a.cur.evs[a.i:])
	a.i += n
	return n, nil
}

// wait makes sure the current batch has an element left, or returns the
// error that ended the input.
func (a *Ahead[T]) wait() error {
	for a.i == len(a.cur.evs) {
		if a.cur.err != nil {
			return a.cur.err
		}
		a.Batch()
	}
	return nil
}

// Close stops the goroutine and waits for it.
func (a *Ahead[T]) Close() {
	a.halt()
	<-a.done
}

// halt stops the goroutine without waiting: it may be blocked in fill.
func (a *Ahead[T]) halt() {
	select {
	case <-a.stop:
	default:
		close(a.stop)
	}
}
