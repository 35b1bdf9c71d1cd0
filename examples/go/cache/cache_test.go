package cache

import (
	"sync"
	"testing"
	"time"
)

// slowLen is a computation slow enough that two concurrent Gets of one
// key both miss.
func slowLen(k string) int {
	time.Sleep(5 * time.Millisecond)
	return len(k)
}

func run(t *testing.T, get func(c *Cache, k string) int) {
	c := New(slowLen)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if get(c, "four") != 4 {
				t.Error("wrong value")
			}
		}()
	}
	wg.Wait()
	if v, ok := c.Peek("four"); !ok || v != 4 {
		t.Fatalf("Peek: %d %v", v, ok)
	}
}

func TestGet(t *testing.T)       { run(t, (*Cache).Get) }
func TestGetAtomic(t *testing.T) { run(t, (*Cache).GetAtomic) }
