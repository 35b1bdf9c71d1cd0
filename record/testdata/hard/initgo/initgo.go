package initgo

import "sync"

var (
	mu    sync.Mutex
	ready int
	done  = make(chan struct{})
)

func init() {
	go func() {
		mu.Lock()
		ready = 1
		mu.Unlock()
		close(done)
	}()
}

func Ready() int {
	<-done
	mu.Lock()
	defer mu.Unlock()
	return ready
}
