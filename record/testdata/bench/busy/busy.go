// Package busy is a small but busy concurrent program for conc record's
// overhead benchmark: goroutines share a counter map under a mutex,
// read a total under a read lock, and pass work over a channel.
package busy

import "sync"

// Store counts hits per key.
type Store struct {
	mu    sync.RWMutex
	hits  map[int]int
	total int
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{hits: map[int]int{}} }

// Hit counts one hit of key.
func (s *Store) Hit(key int) {
	s.mu.Lock()
	s.hits[key]++
	s.total++
	s.mu.Unlock()
}

// Total is the number of hits.
func (s *Store) Total() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.total
}

// Run has workers goroutines take n keys from a channel and count them.
func Run(s *Store, workers, n int) {
	keys := make(chan int, 16)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range keys {
				s.Hit(k)
				if k%8 == 0 {
					s.Total()
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		keys <- i % 64
	}
	close(keys)
	wg.Wait()
}
