//go:build go1.21

package rt

import (
	"strconv"
	"sync"
	"sync/atomic"
)

// Thread names: a goroutine started by an instrumented go statement is
// gN, N in creation order; a test function's goroutine is named after the
// test; the goroutine of TestMain is main; any other goroutine (one the
// testing package or uninstrumented code started) is uN in first-seen
// order. The encoder keeps the names (namer.thread); the goroutines pass
// their ids, and name themselves with opName records.
var (
	forks    int              // go statements so far; mu guards it
	tests    int              // tests started; mu guards it
	ended    = map[int]bool{} // tests whose end is posted; mu guards it
	mainID   atomic.Uint64    // the goroutine that runs TestMain; 0 before Main
	mainBusy atomic.Bool      // it has written an event
	// early are the goroutines that wrote events before Main was called
	// (package initialisers): Main needs to know whether its goroutine
	// is one of them.
	earlyMu sync.Mutex
	early   = map[uint64]bool{}
)

// self is the calling goroutine's id, which its events carry.
func self() uint64 {
	id := goid()
	switch m := mainID.Load(); {
	case m == 0:
		earlyMu.Lock()
		if early != nil { // else Main has just run
			early[id] = true
		}
		earlyMu.Unlock()
	case id == m && !mainBusy.Load():
		mainBusy.Store(true)
	}
	return id
}

// event writes one event of the calling goroutine.
func event(o op, a ref, loc string) {
	if on {
		emit(self(), o, &a, loc)
	}
}

// message writes post(M), wait(M), give(S) or take(S) of thread t.
// Plain STD (--rapid) has no such ops: they name what they name and
// write nothing.
func message(t uint64, o op, m *ref, loc string) {
	switch {
	case !on:
	case rapid:
		emit(t, opMeet, m, loc)
	default:
		emit(t, o, m, loc)
	}
}

// message2 is message of two events in a row (emit2).
func message2(t uint64, o, o2 op, k kind, m *ref, loc string) {
	switch {
	case !on:
	case rapid:
		emit(t, opMeet, m, loc)
	default:
		emit2(t, o, o2, k, m, loc)
	}
}

// nameThread names the calling goroutine (onlyNew: unless it has a name).
func nameThread(name string, onlyNew bool) {
	if !on {
		return
	}
	a := lit(name)
	if onlyNew {
		a.n = 1
	}
	emit(goid(), opName, &a, "")
}

// Fork is called before an instrumented go statement: it writes
// fork(gN) and returns gN, which the new goroutine passes to Start.
func Fork(loc string) string {
	mu.Lock()
	defer mu.Unlock()
	forks++
	name := "g" + strconv.Itoa(forks)
	event(opFork, lit(name), loc)
	return name
}

// Start names the calling goroutine: the first thing a forked goroutine
// does.
func Start(name string) { nameThread(name, false) }

// Test names the goroutine of test function name and orders it after the
// test before it (the testing package runs them one after another): it
// waits for the message test#K that the K-th test posted at its end, when
// that end is already in the trace (a parallel test's may not be). It
// returns the test's number for TestEnd.
func Test(name, loc string) int {
	mu.Lock()
	defer mu.Unlock()
	nameThread(name, false)
	tests++
	busy := tests == 1 && mainBusy.Load()
	if busy {
		// TestMain is blocked in m.Run, which started this test: its
		// post stands at its place in the trace.
		m := lit("test#0")
		message(mainID.Load(), opPost, &m, loc)
	}
	if ended[tests-1] || busy {
		m := lit("test#" + strconv.Itoa(tests-1))
		message(goid(), opWait, &m, loc)
	}
	return tests
}

// Main is called first by every TestMain: the goroutine that runs it
// (and the package initialisers before it) is "main" unless it already
// has a name, and what it does before m.Run is ordered before the first
// test by the message test#0.
func Main() {
	mu.Lock()
	defer mu.Unlock()
	id := goid()
	earlyMu.Lock()
	if early[id] {
		mainBusy.Store(true)
	}
	mainID.Store(id)
	early = nil
	earlyMu.Unlock()
	nameThread("main", true)
}

// TestEnd posts the end of test k and flushes the trace; the
// instrumented test defers it, so it runs even when the test panics.
func TestEnd(k int, loc string) {
	mu.Lock()
	defer mu.Unlock()
	ended[k] = true
	m := lit("test#" + strconv.Itoa(k))
	message(self(), opPost, &m, loc)
	if on && !closed.Load() { // a test that panics kills the binary after its defers
		flush()
	}
}
