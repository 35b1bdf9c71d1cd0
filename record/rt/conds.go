//go:build go1.21

package rt

import (
	"reflect"
	"sync"
	"unsafe"
)

// A sync.Cond's waiters are queued here, not in the Cond: an instrumented
// Wait takes a ticket K and sleeps on a channel of its own, and the
// Signal or Broadcast that wakes it posts NAME.wK, which the waiter waits
// for when it wakes. The recorder then knows which call woke which waiter
// (the Cond's own list does not say), so the trace orders each waiter
// after its waker only: no waiter after a Signal that woke another, as
// a count of signals would. A Signal or Broadcast with no instrumented
// waiter goes to the Cond itself, for waiters in uninstrumented code.
type condition struct {
	waiters []waiter
	tickets int
}

type waiter struct {
	ticket int
	wake   chan struct{}
}

var conditions = map[*sync.Cond]*condition{}

// condTag names a Cond reached by no field or variable, and its
// waiters' messages: sync.Cond#N.wK.
var condTag = &tag{kind: "sync.Cond", tail: ".w"}

func conditionOf(c *sync.Cond) *condition {
	s := conditions[c]
	if s == nil {
		s = &condition{}
		conditions[c] = s
	}
	return s
}

// CondWait is c.Wait(): the waiter is queued (from then on a Signal wakes
// it, as the Cond's list would) before c.L is released, so no Signal
// between the release and the sleep is lost. Around the sleep, c.L's
// release and acquisition are written as the lock's own Unlock and Lock
// would write them (locker).
func CondWait(c *sync.Cond, obj any, hint, loc string) {
	if !on {
		c.Wait()
		return
	}
	mu.Lock()
	s := conditionOf(c)
	s.tickets++
	w := waiter{ticket: s.tickets, wake: make(chan struct{})}
	s.waiters = append(s.waiters, w)
	mu.Unlock()
	release, acquire := locker(c.L, loc)
	release()
	<-w.wake
	acquire()
	m := object(unsafe.Pointer(c), hint, obj, condTag).nth(w.ticket)
	message(self(), opWait, &m, loc)
}

// CondSignal is c.Signal(): it wakes the longest-waiting instrumented
// waiter, if any, after posting its message.
func CondSignal(c *sync.Cond, obj any, hint, loc string) {
	if !on {
		c.Signal()
		return
	}
	mu.Lock()
	defer mu.Unlock()
	s := conditionOf(c)
	if len(s.waiters) == 0 {
		c.Signal()
		return
	}
	wakeWaiter(c, s.waiters[0], obj, hint, loc)
	s.waiters = s.waiters[1:]
}

// CondBroadcast is c.Broadcast(): it wakes every instrumented waiter
// (each after its message is posted) and every waiter in the Cond.
func CondBroadcast(c *sync.Cond, obj any, hint, loc string) {
	if !on {
		c.Broadcast()
		return
	}
	mu.Lock()
	defer mu.Unlock()
	s := conditionOf(c)
	for _, w := range s.waiters {
		wakeWaiter(c, w, obj, hint, loc)
	}
	s.waiters = nil
	c.Broadcast()
}

// wakeWaiter posts waiter w's message and wakes it; mu is held, so the
// post's ticket comes before anything the waiter writes.
func wakeWaiter(c *sync.Cond, w waiter, obj any, hint, loc string) {
	m := object(unsafe.Pointer(c), hint, obj, condTag).nth(w.ticket)
	message(self(), opPost, &m, loc)
	close(w.wake)
}

// locker returns the release and reacquisition of a Cond's Locker, with
// their lines: a *sync.Mutex or a *sync.RWMutex (its write lock) as
// Unlock and Lock write them, an RWMutex's RLocker as RUnlock and RLock.
// Any other Locker is called as it is: if it is instrumented code, its
// own lines are written.
func locker(l sync.Locker, loc string) (release, acquire func()) {
	switch m := l.(type) {
	case *sync.Mutex:
		return func() { Unlock(m, nil, "", loc) }, func() { Lock(m, nil, "", loc) }
	case *sync.RWMutex:
		return func() { WUnlock(m, nil, "", loc) }, func() { WLock(m, nil, "", loc) }
	}
	if reflect.TypeOf(l) == rlockerType {
		m := (*sync.RWMutex)(pointer(l))
		return func() { RUnlock(m, nil, "", loc) }, func() { RLock(m, nil, "", loc) }
	}
	return l.Unlock, l.Lock
}

// rlockerType is the type RWMutex.RLocker returns (unexported: a
// *sync.rlocker, the RWMutex's own address).
var rlockerType = reflect.TypeOf(new(sync.RWMutex).RLocker())
