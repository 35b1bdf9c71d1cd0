// Package fresh is the other extreme of conc record's cost: every event
// is on an object the trace has not met, so each line is made anew.
package fresh

import "sync"

// Node is locked and written once by one of two goroutines.
type Node struct {
	mu  sync.Mutex
	val int
}

// Fill makes n nodes, then has two goroutines take turns over them: each
// locks a node, adds to its value and reads it back.
func Fill(n int) []*Node {
	ns := make([]*Node, n)
	for i := range ns {
		ns[i] = &Node{}
	}
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += 2 {
				x := ns[i]
				x.mu.Lock()
				x.val += i
				_ = x.val
				x.mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	return ns
}
