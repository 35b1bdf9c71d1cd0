// Package basic has one of each access and lock event for conc record's
// tests.
package basic

import "sync"

// Store is a struct with a lock, a counter, a slice and a map.
type Store struct {
	mu    sync.Mutex
	rw    sync.RWMutex
	count int
	buf   []int
	items map[string]int
}

// Hits is a package-level variable.
var Hits int

// Add is a transaction: begin at entry, end at its return.
//
//conc:atomic
func (s *Store) Add(k string, v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	s.buf[0] = v
	s.items[k] = v
	Hits = s.count
}

// Get reads under the read lock.
func (s *Store) Get(k string) int {
	s.rw.RLock()
	v := s.items[k]
	s.rw.RUnlock()
	return v
}

// Put writes under the write lock; --atomic names it in the test.
func (s *Store) Put(k string, v int) {
	s.rw.Lock()
	s.items[k] = v
	s.rw.Unlock()
}
