//go:build !windows || windows

// Package old is in a module whose go version predates generics.
package old

import "sync"

var (
	mu sync.Mutex
	n  int
)

// Inc adds one under mu.
func Inc() {
	mu.Lock()
	n++
	mu.Unlock()
}
