//go:build go1.21

package rt

import "strconv"

// Thread names: a goroutine started by an instrumented go statement is
// gN, N in creation order; a test function's goroutine is named after the
// test; the goroutine of TestMain is main; any other goroutine (one the
// testing package or uninstrumented code started) is uN in first-seen
// order.
var (
	threads  = map[uint64]string{}
	forks    int
	unknown  int
	mainID   uint64           // the goroutine that runs TestMain
	mainBusy bool             // it has written an event
	tests    int              // tests started
	ended    = map[int]bool{} // tests whose end is posted
)

// self is the calling goroutine's thread name; mu is held.
func self() string {
	id := goid()
	if id == mainID {
		mainBusy = true
	}
	if name, ok := threads[id]; ok {
		return name
	}
	unknown++
	name := "u" + strconv.Itoa(unknown)
	threads[id] = name
	return name
}

// Fork is called before an instrumented go statement: it writes
// fork(gN) and returns gN, which the new goroutine passes to Start.
func Fork(loc string) string {
	mu.Lock()
	defer mu.Unlock()
	forks++
	name := "g" + strconv.Itoa(forks)
	if on {
		emit(self(), "fork", name, loc)
	}
	return name
}

// Start names the calling goroutine: the first thing a forked goroutine
// does.
func Start(name string) {
	mu.Lock()
	threads[goid()] = name
	mu.Unlock()
}

// Test names the goroutine of test function name and orders it after the
// test before it (the testing package runs them one after another): it
// waits for the message test#K that the K-th test posted at its end, when
// that end is already in the trace (a parallel test's may not be). It
// returns the test's number for TestEnd.
func Test(name, loc string) int {
	mu.Lock()
	defer mu.Unlock()
	threads[goid()] = name
	tests++
	if tests == 1 && mainBusy {
		// TestMain is blocked in m.Run, which started this test: its
		// post stands at its place in the trace.
		message(threads[mainID], "post", "test#0", loc)
	}
	if ended[tests-1] || tests == 1 && mainBusy {
		message(name, "wait", "test#"+strconv.Itoa(tests-1), loc)
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
	mainID = goid()
	if _, ok := threads[mainID]; ok {
		mainBusy = true
	} else {
		threads[mainID] = "main"
	}
}

// TestEnd posts the end of test k and flushes the trace; the
// instrumented test defers it, so it runs even when the test panics.
func TestEnd(k int, loc string) {
	mu.Lock()
	defer mu.Unlock()
	ended[k] = true
	message(self(), "post", "test#"+strconv.Itoa(k), loc)
	if on && !closed { // a test that panics kills the binary after its defers
		flush()
	}
}

// message writes post(M) or wait(M); mu is held. Plain STD (--rapid) has
// no such ops: they are dropped.
func message(thread, op, m, loc string) {
	if on && !rapid {
		emit(thread, op, m, loc)
	}
}
