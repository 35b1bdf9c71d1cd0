// Package cache computes values once per key.
package cache

import "sync"

// Cache maps keys to computed values.
type Cache struct {
	mu      sync.RWMutex
	m       map[string]int
	compute func(string) int
}

// New makes a cache over compute.
func New(compute func(string) int) *Cache {
	return &Cache{m: map[string]int{}, compute: compute}
}

// Get returns the value of k, computing it on a miss. Not atomic: the
// lookup (under the read lock) and the store (under the write lock) are
// two critical sections, so two Gets can both miss and compute.
//
//conc:atomic
func (c *Cache) Get(k string) int {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = c.compute(k)
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
	return v
}

// GetAtomic is Get's twin: lookup and store under the write lock.
//
//conc:atomic
func (c *Cache) GetAtomic(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	v := c.compute(k)
	c.m[k] = v
	return v
}

// Peek looks k up under the read lock.
func (c *Cache) Peek(k string) (int, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}
