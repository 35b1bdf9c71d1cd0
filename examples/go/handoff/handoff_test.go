package handoff

import (
	"sync"
	"testing"
)

// run puts one item from a goroutine while another takes it. Whether the
// taker saw the queue consistent depends on the schedule, so the test
// checks only what every schedule gives: the total once both are done.
func run(t *testing.T, put func(q *Queue, v int)) {
	q := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		put(q, 5)
	}()
	go func() {
		defer wg.Done()
		q.Take()
	}()
	wg.Wait()
	if n := q.Total(); n != 5 {
		t.Fatalf("total %d after putting 5", n)
	}
}

func TestPut(t *testing.T)       { run(t, (*Queue).Put) }
func TestPutAtomic(t *testing.T) { run(t, (*Queue).PutAtomic) }
