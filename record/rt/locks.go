//go:build go1.21

package rt

import (
	"sync"
	"unsafe"
)

// Lock acquires m, then writes acq(L): the line follows the acquisition,
// and Unlock's rel(L) precedes the release, so the trace's lines of L are
// in the order of L's critical sections.
func Lock(m *sync.Mutex, obj any, hint, loc string) {
	m.Lock()
	lockEvent("acq", unsafe.Pointer(m), obj, hint, "sync.Mutex", loc)
}

// Unlock writes rel(L), then releases m.
func Unlock(m *sync.Mutex, obj any, hint, loc string) {
	lockEvent("rel", unsafe.Pointer(m), obj, hint, "sync.Mutex", loc)
	m.Unlock()
}

// TryLock writes acq(L) when it acquires m.
func TryLock(m *sync.Mutex, obj any, hint, loc string) bool {
	ok := m.TryLock()
	if ok {
		lockEvent("acq", unsafe.Pointer(m), obj, hint, "sync.Mutex", loc)
	}
	return ok
}

// WLock is Lock of a sync.RWMutex: its write lock is acq(L)/rel(L).
func WLock(m *sync.RWMutex, obj any, hint, loc string) {
	m.Lock()
	lockEvent("acq", unsafe.Pointer(m), obj, hint, "sync.RWMutex", loc)
}

// WUnlock is Unlock of a sync.RWMutex.
func WUnlock(m *sync.RWMutex, obj any, hint, loc string) {
	lockEvent("rel", unsafe.Pointer(m), obj, hint, "sync.RWMutex", loc)
	m.Unlock()
}

// TryWLock is TryLock of a sync.RWMutex.
func TryWLock(m *sync.RWMutex, obj any, hint, loc string) bool {
	ok := m.TryLock()
	if ok {
		lockEvent("acq", unsafe.Pointer(m), obj, hint, "sync.RWMutex", loc)
	}
	return ok
}

// RLock read-acquires m, then writes racq(L).
func RLock(m *sync.RWMutex, obj any, hint, loc string) {
	m.RLock()
	readEvent(true, unsafe.Pointer(m), obj, hint, loc)
}

// RUnlock writes rrel(L), then read-releases m.
func RUnlock(m *sync.RWMutex, obj any, hint, loc string) {
	readEvent(false, unsafe.Pointer(m), obj, hint, loc)
	m.RUnlock()
}

// TryRLock writes racq(L) when it read-acquires m.
func TryRLock(m *sync.RWMutex, obj any, hint, loc string) bool {
	ok := m.TryRLock()
	if ok {
		readEvent(true, unsafe.Pointer(m), obj, hint, loc)
	}
	return ok
}

func lockEvent(op string, p unsafe.Pointer, obj any, hint, kind, loc string) {
	if !on {
		return
	}
	mu.Lock()
	emit(self(), op, fixedName(p, hint, obj, kind), loc)
	mu.Unlock()
}

// readers is, with --rapid, the goroutine that stands for the read
// holders of each RWMutex: plain STD has no read lock, and two acq(L) at
// once are not a valid trace, so only a read-acquire of a lock no one
// holds for reading is written (as acq), and only its release (as rel).
var readers = map[unsafe.Pointer]string{}

func readEvent(acquire bool, p unsafe.Pointer, obj any, hint, loc string) {
	if !on {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	name, t := fixedName(p, hint, obj, "sync.RWMutex"), self()
	switch {
	case !rapid && acquire:
		emit(t, "racq", name, loc)
	case !rapid:
		emit(t, "rrel", name, loc)
	case acquire && readers[p] == "":
		readers[p] = t
		emit(t, "acq", name, loc)
	case !acquire && readers[p] == t:
		delete(readers, p)
		emit(t, "rel", name, loc)
	}
}
