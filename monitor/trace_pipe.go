package monitor

import (
	"context"
	"io"

	"github.com/conc-dev/conc/trace"
)

// Reading and checking take about the same time per event, so CheckTrace
// reads on its own goroutine, a few batches ahead, while the monitor steps
// through the previous batch: on two cores the check costs the slower of
// the two instead of their sum. Every batch is stepped in order, so the
// answer is the same.

// traceBatch is a batch of events as Reader.Read returned it.
type traceBatch struct {
	evs []trace.Event
	err error
}

// readAheadDepth is how many batches may wait to be stepped.
const readAheadDepth = 3

// readAhead reads r on a new goroutine into full; the caller hands batches
// back through free, and closes stop and waits for done before it touches r.
func readAhead(r *trace.Reader) (full <-chan traceBatch, free chan<- []trace.Event, stop chan struct{}, done <-chan struct{}) {
	fullc := make(chan traceBatch, readAheadDepth)
	freec := make(chan []trace.Event, readAheadDepth+1)
	stopc, donec := make(chan struct{}), make(chan struct{})
	for range readAheadDepth + 1 {
		freec <- make([]trace.Event, 4096)
	}
	go func() {
		defer close(donec)
		defer close(fullc)
		for {
			var buf []trace.Event
			select {
			case buf = <-freec:
			case <-stopc:
				return
			}
			n, err := r.Read(buf)
			select {
			case fullc <- traceBatch{buf[:n], err}:
			case <-stopc:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return fullc, freec, stopc, donec
}

// stepAhead is CheckTrace's loop over read-ahead batches; it returns why
// the check stopped early ("" if it read the whole trace).
func (m *TraceMonitor) stepAhead(ctx context.Context, r *trace.Reader) (string, error) {
	full, free, stop, done := readAhead(r)
	defer func() { close(stop); <-done }()
	for b := range full {
		m.StepAll(b.evs, false)
		free <- b.evs[:cap(b.evs)]
		if b.err == io.EOF {
			return "", nil
		}
		if b.err != nil {
			return "", b.err
		}
		if ctx.Err() != nil {
			return context.Cause(ctx).Error(), nil
		}
	}
	return "", nil
}
