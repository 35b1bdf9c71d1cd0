package gen

import (
	"sync"
	"testing"
)

func TestSwap(t *testing.T) {
	var b Box[int]
	swap := b.Swap // a method value
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			swap(i)
		}(i)
	}
	wg.Wait()
	counter := 0
	inc := func() { counter++ } // a closure
	inc()
	_ = Map([]int{1, 2}, func(x int) int { return x * 2 })
	if b.n != 2 || counter != 1 {
		t.Fatal(b.n, counter)
	}
}
