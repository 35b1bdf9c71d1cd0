//go:build go1.21

package rt

import (
	"sync"
	"unsafe"
)

// A WaitGroup's Done posts wg#N.eK, K its epoch: the epoch ends when the
// counter (kept here beside the real one) comes back to zero, and a Wait
// that returns waits for the last ended epoch, whose Done calls are the
// ones that unblocked it.
type group struct {
	count int
	epoch int // the current epoch; epoch-1 is the last ended one
}

var groups = map[*sync.WaitGroup]*group{}

// groupOf is wg's group, named when first met; mu is held.
func groupOf(wg *sync.WaitGroup) (*group, ref) {
	name := object(unsafe.Pointer(wg), "", nil, epochTag)
	g := groups[wg]
	if g == nil {
		g = &group{epoch: 1}
		groups[wg] = g
		if on {
			emit(0, opMeet, &name, "")
		}
	}
	return g, name
}

// WGAdd is wg.Add(n): the count is kept before the real Add, so it never
// runs below the real one.
func WGAdd(wg *sync.WaitGroup, n int) {
	mu.Lock()
	g, _ := groupOf(wg)
	g.count += n
	mu.Unlock()
	wg.Add(n)
}

// WGDone posts the current epoch, then calls wg.Done.
func WGDone(wg *sync.WaitGroup, loc string) {
	mu.Lock()
	g, name := groupOf(wg)
	m := name.nth(g.epoch)
	message(self(), opPost, &m, loc)
	if g.count--; g.count == 0 {
		g.epoch++
	}
	mu.Unlock()
	wg.Done()
}

// WGWait calls wg.Wait, then waits for the last ended epoch.
func WGWait(wg *sync.WaitGroup, loc string) {
	wg.Wait()
	mu.Lock()
	g, name := groupOf(wg)
	if g.epoch > 1 {
		m := name.nth(g.epoch - 1)
		message(self(), opWait, &m, loc)
	}
	mu.Unlock()
}

// WGGo is wg.Go(f): an Add, a fork and a Done at f's return.
func WGGo(wg *sync.WaitGroup, f func(), loc string) {
	WGAdd(wg, 1)
	t := Fork(loc)
	go func() {
		Start(t)
		defer WGDone(wg, loc)
		f()
	}()
}

// OnceDo is once.Do(f): the return of the function that ran posts
// once#N, and every Do, when it returns, waits for it.
func OnceDo(o *sync.Once, f func(), loc string) {
	o.Do(func() {
		defer func() {
			mu.Lock()
			m := object(unsafe.Pointer(o), "", nil, onceTag)
			message(self(), opPost, &m, loc)
			mu.Unlock()
		}()
		f()
	})
	mu.Lock()
	m := object(unsafe.Pointer(o), "", nil, onceTag)
	message(self(), opWait, &m, loc)
	mu.Unlock()
}
