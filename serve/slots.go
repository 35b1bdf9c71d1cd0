package serve

import (
	"context"
	"time"
)

// slots bound the checks and sweeps that run at once: each decision may
// take a core and its memory budget, so a classroom pressing Check
// together queues instead of thrashing the machine.
type slots struct{ ch chan struct{} }

func newSlots(n int) *slots { return &slots{ch: make(chan struct{}, n)} }

// acquire takes a slot, waiting at most wait (or until ctx ends, the
// client gone); ok false means none freed.
func (s *slots) acquire(ctx context.Context, wait time.Duration) bool {
	return acquireEither(ctx, wait, s, nil) != nil
}

func (s *slots) release() { <-s.ch }

// acquireEither takes a slot of a, or of b if b is not nil, whichever
// frees first within wait (or before ctx ends); nil if neither did. A
// free slot of a is taken before one of b.
func acquireEither(ctx context.Context, wait time.Duration, a, b *slots) *slots {
	var bch chan struct{} // nil: a send on it never happens
	if b != nil {
		bch = b.ch
	}
	select {
	case a.ch <- struct{}{}:
		return a
	default:
	}
	select {
	case bch <- struct{}{}:
		return b
	default:
	}
	if wait <= 0 {
		return nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case a.ch <- struct{}{}:
		return a
	case bch <- struct{}{}:
		return b
	case <-t.C:
	case <-ctx.Done():
	}
	return nil
}
