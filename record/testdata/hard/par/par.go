package par

import "sync"

type C struct {
	mu sync.Mutex
	n  int
}

func (c *C) Inc() { c.mu.Lock(); c.n++; c.mu.Unlock() }
