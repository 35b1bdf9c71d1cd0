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
	lockEvent(opAcq, unsafe.Pointer(m), obj, hint, mutexTag, loc)
}

// Unlock writes rel(L), then releases m.
func Unlock(m *sync.Mutex, obj any, hint, loc string) {
	lockEvent(opRel, unsafe.Pointer(m), obj, hint, mutexTag, loc)
	m.Unlock()
}

// TryLock writes acq(L) when it acquires m.
func TryLock(m *sync.Mutex, obj any, hint, loc string) bool {
	ok := m.TryLock()
	if ok {
		lockEvent(opAcq, unsafe.Pointer(m), obj, hint, mutexTag, loc)
	}
	return ok
}

// WLock is Lock of a sync.RWMutex: its write lock is acq(L)/rel(L).
func WLock(m *sync.RWMutex, obj any, hint, loc string) {
	m.Lock()
	lockEvent(opAcq, unsafe.Pointer(m), obj, hint, rwmutexTag, loc)
}

// WUnlock is Unlock of a sync.RWMutex.
func WUnlock(m *sync.RWMutex, obj any, hint, loc string) {
	lockEvent(opRel, unsafe.Pointer(m), obj, hint, rwmutexTag, loc)
	m.Unlock()
}

// TryWLock is TryLock of a sync.RWMutex.
func TryWLock(m *sync.RWMutex, obj any, hint, loc string) bool {
	ok := m.TryLock()
	if ok {
		lockEvent(opAcq, unsafe.Pointer(m), obj, hint, rwmutexTag, loc)
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

func lockEvent(o op, p unsafe.Pointer, obj any, hint string, kind *tag, loc string) {
	if on {
		a := object(p, hint, obj, kind)
		emit(self(), o, &a, loc)
	}
}

// readers is, with --rapid, the goroutine that stands for the read
// holders of each RWMutex: plain STD has no read lock, and two acq(L) at
// once are not a valid trace, so only a read-acquire of a lock no one
// holds for reading is written (as acq), and only its release (as rel).
// mu guards it.
var readers = map[unsafe.Pointer]uint64{}

func readEvent(acquire bool, p unsafe.Pointer, obj any, hint, loc string) {
	switch {
	case !on:
	case !rapid && acquire:
		a := object(p, hint, obj, rwmutexTag)
		emit(self(), opRacq, &a, loc)
	case !rapid:
		a := object(p, hint, obj, rwmutexTag)
		emit(self(), opRrel, &a, loc)
	default:
		rapidReadEvent(acquire, p, obj, hint, loc)
	}
}

func rapidReadEvent(acquire bool, p unsafe.Pointer, obj any, hint, loc string) {
	mu.Lock()
	defer mu.Unlock()
	name, t := object(p, hint, obj, rwmutexTag), self()
	switch {
	case acquire && readers[p] == 0:
		readers[p] = t
		emit(t, opAcq, &name, loc)
	case !acquire && readers[p] == t:
		delete(readers, p)
		emit(t, opRel, &name, loc)
	default: // the lock is named as before, though nothing is written
		emit(t, opMeet, &name, loc)
	}
}
