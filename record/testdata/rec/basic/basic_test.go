package basic

import (
	"sync"
	"testing"
)

func TestBasic(t *testing.T) {
	s := &Store{buf: make([]int, 1), items: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Add("a", 1)
	}()
	wg.Wait()
	s.Put("b", 2)
	if s.Get("a") != 1 || Hits != 1 {
		t.Fatal("lost the write")
	}
}

func TestSecond(t *testing.T) {
	Hits = 0
}
