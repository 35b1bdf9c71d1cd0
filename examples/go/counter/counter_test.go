package counter

import (
	"sync"
	"testing"
)

func run(t *testing.T, inc func(c *Counter)) {
	var c Counter
	inc(&c)
	if c.Value() != 1 {
		t.Fatalf("after one Inc: %d", c.Value())
	}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inc(&c)
		}()
	}
	wg.Wait()
	if v := c.Value(); v < 2 || v > 3 {
		t.Fatalf("after three Incs: %d", v)
	}
}

func TestInc(t *testing.T)       { run(t, (*Counter).Inc) }
func TestIncAtomic(t *testing.T) { run(t, (*Counter).IncAtomic) }
