// Package cond hands a value over through a sync.Cond for conc record's
// tests.
package cond

import (
	"sync"
	"sync/atomic"
)

// Box holds one value; Take waits until one is there.
type Box struct {
	mu    sync.Mutex
	ready *sync.Cond
	full  bool
	v     int
}

// NewBox returns an empty box.
func NewBox() *Box {
	b := &Box{}
	b.ready = sync.NewCond(&b.mu)
	return b
}

// Put stores v and wakes one taker.
func (b *Box) Put(v int) {
	b.mu.Lock()
	b.v, b.full = v, true
	b.ready.Signal()
	b.mu.Unlock()
}

// Take waits for a value; it sets *in once it holds the lock, so that a
// test knows (without a recorded event) that Put will find it waiting.
func (b *Box) Take(in *atomic.Bool) int {
	b.mu.Lock()
	in.Store(true)
	for !b.full {
		b.ready.Wait()
	}
	b.full = false
	v := b.v
	b.mu.Unlock()
	return v
}

// Gate opens once for every reader waiting under a read lock.
type Gate struct {
	mu   sync.RWMutex
	open *sync.Cond
	up   bool
}

// NewGate returns a closed gate whose waiters hold read locks.
func NewGate() *Gate {
	g := &Gate{}
	g.open = sync.NewCond(g.mu.RLocker())
	return g
}

// Pass waits until the gate is open; in as for Take.
func (g *Gate) Pass(in *atomic.Bool) {
	g.mu.RLock()
	in.Store(true)
	for !g.up {
		g.open.Wait()
	}
	g.mu.RUnlock()
}

// Open opens the gate and wakes every waiter.
func (g *Gate) Open() {
	g.mu.Lock()
	g.up = true
	g.mu.Unlock()
	g.open.Broadcast()
}
