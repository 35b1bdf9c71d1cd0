// Package handoff hands items from a producer to a consumer through a
// channel.
package handoff

import "sync"

// Queue holds items and their total, which Put keeps in step, and wakes
// a consumer through ready for each item put.
type Queue struct {
	mu    sync.Mutex
	items []int
	total int // the sum of items
	ready chan struct{}
}

// New makes an empty queue.
func New() *Queue { return &Queue{ready: make(chan struct{})} }

// Put appends v and hands it off to a consumer. Not atomic: the hand-off
// comes between the append and the update of the total, so the woken
// consumer can see the item without its share of the total. Every access
// holds the lock, so the race detector is silent.
//
//conc:atomic
func (q *Queue) Put(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.ready <- struct{}{}
	q.mu.Lock()
	q.total += v
	q.mu.Unlock()
}

// PutAtomic is Put's twin: the item and the total change in one critical
// section, and the hand-off follows it.
//
//conc:atomic
func (q *Queue) PutAtomic(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.total += v
	q.mu.Unlock()
	q.ready <- struct{}{}
}

// Take waits for an item and reports whether the items and the total
// agree.
//
//conc:atomic
func (q *Queue) Take() bool {
	<-q.ready
	q.mu.Lock()
	defer q.mu.Unlock()
	sum := 0
	for _, v := range q.items {
		sum += v
	}
	return sum == q.total
}

// Total reads the total.
func (q *Queue) Total() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.total
}
