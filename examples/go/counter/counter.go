// Package counter counts events.
package counter

import "sync"

// Counter is a count under a lock.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) load() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *Counter) store(n int) {
	c.mu.Lock()
	c.n = n
	c.mu.Unlock()
}

// Inc adds one. Not atomic: a locked load, then a locked store, so two
// Incs can both load the same count and one increment is lost.
//
//conc:atomic
func (c *Counter) Inc() { c.store(c.load() + 1) }

// IncAtomic is Inc's twin: load and store in one critical section.
//
//conc:atomic
func (c *Counter) IncAtomic() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Value reads the count.
func (c *Counter) Value() int { return c.load() }
