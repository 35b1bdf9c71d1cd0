package cond

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// await spins until *in is set: unlike a channel, it writes no line, so
// the trace's order is the same in every run.
func await(in *atomic.Bool) {
	for !in.Load() {
		runtime.Gosched()
	}
}

// TestSignal: the taker waits (Put cannot lock until Wait releases the
// lock), Put signals it.
func TestSignal(t *testing.T) {
	b := NewBox()
	var in atomic.Bool
	var wg sync.WaitGroup
	v := 0
	wg.Add(1)
	go func() { defer wg.Done(); v = b.Take(&in) }()
	await(&in)
	b.Put(7)
	wg.Wait()
	if v != 7 {
		t.Fatalf("took %d", v)
	}
}

// TestBroadcast: a reader waits under a read lock until Open, which
// write-locks (so after the reader's Wait released its read lock).
func TestBroadcast(t *testing.T) {
	g := NewGate()
	var in atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); g.Pass(&in) }()
	await(&in)
	g.Open()
	wg.Wait()
}
