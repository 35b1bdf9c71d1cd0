package stock

import (
	"sync"
	"testing"
)

func run(t *testing.T, take func(s *Stock) bool) {
	s := New(2)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			take(s)
		}()
	}
	wg.Wait()
	if n := s.Count(); n != 0 {
		t.Fatalf("stock %d after two takes of two", n)
	}
}

func TestTake(t *testing.T)       { run(t, (*Stock).Take) }
func TestTakeAtomic(t *testing.T) { run(t, (*Stock).TakeAtomic) }
