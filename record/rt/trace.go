//go:build go1.21

package rt

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// The environment the recorder sets for the test binary.
const (
	envTrace = "CONC_RECORD_TRACE" // the trace file to write
	envRapid = "CONC_RECORD_RAPID" // "1": plain STD, no extension ops
)

// mu guards the runtime's own state of channels, WaitGroups, forks and
// tests (not the trace: emit takes no lock). Code that decides what to
// write from that state writes it while holding mu, so that its tickets
// follow the state's order.
var mu sync.Mutex

// cond is signalled when a receive is written (a sender may wait for the
// receive that lets it complete, see chans.go).
var cond = sync.NewCond(&mu)

var (
	on     bool        // a trace is being written
	closed atomic.Bool // Finish closed it: later events are dropped
	rapid  bool

	file      io.Closer
	finishing sync.Once
)

func init() {
	path := os.Getenv(envTrace)
	if path == "" {
		return
	}
	// A test that runs its own binary again (to watch it crash, say)
	// passes its environment on: the child must not write over this
	// trace.
	os.Unsetenv(envTrace)
	f, err := os.Create(path)
	if err != nil {
		os.Stderr.WriteString("conc record: " + err.Error() + "\n")
		os.Exit(2)
	}
	start(f, os.Getenv(envRapid) == "1")
}

// start writes the trace to f from now on.
func start(f io.WriteCloser, plain bool) {
	rapid = plain
	ring = make([]record, ringSize)
	enc, file = newEncoder(f), f
	on = true
	go encodeLoop()
}

// flush writes every line emitted so far to the file and returns when
// they are there.
func flush() {
	if t := tickets.Load(); t&closedBit == 0 {
		flushTo(t, false)
	}
}

// Finish ends the trace: a complete gzip stream. Events after it are
// dropped (goroutines the tests left running).
func Finish() {
	if !on {
		return
	}
	finishing.Do(func() {
		closed.Store(true)
		end := tickets.Load()
		for !tickets.CompareAndSwap(end, end|closedBit) {
			end = tickets.Load()
		}
		// The tickets below end are all real: each will be written.
		flushTo(end, true)
		file.Close()
	})
}

// Exit closes the trace and exits: the TestMain the recorder adds ends
// with it.
func Exit(code int) {
	Finish()
	os.Exit(code)
}

// Closing closes the trace and returns code: the recorder makes
// os.Exit(code) in instrumented code os.Exit(Closing(code)).
func Closing(code int) int {
	Finish()
	return code
}
