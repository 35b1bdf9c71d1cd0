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
	select {
	case s.ch <- struct{}{}:
		return true
	default:
	}
	if wait <= 0 {
		return false
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case s.ch <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func (s *slots) release() { <-s.ch }
