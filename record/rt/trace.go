//go:build go1.21

package rt

import (
	"compress/gzip"
	"os"
	"sync"
	"time"
)

// The environment the recorder sets for the test binary.
const (
	envTrace = "CONC_RECORD_TRACE" // the trace file to write
	envRapid = "CONC_RECORD_RAPID" // "1": plain STD, no extension ops
)

// mu orders every line of the trace and guards all of the runtime's state.
var mu sync.Mutex

// cond is signalled when a message is posted (a sender may wait for the
// receive that lets it complete, see chan.go).
var cond = sync.NewCond(&mu)

var (
	file   *os.File
	zw     *gzip.Writer
	on     bool // a trace is being written
	closed bool // Exit closed it: later events are dropped
	rapid  bool
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
	file, rapid = f, os.Getenv(envRapid) == "1"
	// The fastest level: compression runs beside the program, and at the
	// default level it takes longer than the events themselves.
	zw, _ = gzip.NewWriterLevel(f, gzip.BestSpeed)
	buf = make([]byte, 0, chunkSize)
	on = true
	go compressor()
	go flusher()
}

// flusher pushes the trace to the file every 50ms, so that a test binary
// that dies loses at most the last moments: the recorder keeps the
// flushed part and marks the trace cut.
func flusher() {
	for {
		time.Sleep(50 * time.Millisecond)
		mu.Lock()
		if closed {
			mu.Unlock()
			return
		}
		handOff(make(chan struct{}))
		mu.Unlock()
	}
}

// emit writes one line THREAD|OP(ARG)|LOC; mu is held. arg "" is an op
// without argument (begin, end).
func emit(thread, op, arg, loc string) {
	if closed {
		return
	}
	buf = append(buf, thread...)
	buf = append(buf, '|')
	buf = append(buf, op...)
	if arg != "" {
		buf = append(buf, '(')
		buf = append(buf, arg...)
		buf = append(buf, ')')
	}
	if loc != "" {
		buf = append(buf, '|')
		buf = append(buf, loc...)
	}
	buf = append(buf, '\n')
	if len(buf) >= chunkSize {
		handOff(nil)
	}
}

// event writes one event of the calling goroutine.
func event(op, arg, loc string) {
	if !on {
		return
	}
	mu.Lock()
	emit(self(), op, arg, loc)
	mu.Unlock()
}

// flush writes every line emitted so far to the file and returns when
// they are there; mu is held.
func flush() {
	done := make(chan struct{})
	handOff(done)
	<-done
}

// Finish ends the trace: a complete gzip stream. Events after it are
// dropped (goroutines the tests left running).
func Finish() {
	if !on {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if closed {
		return
	}
	closed = true
	handOff(nil)
	close(chunks)
	<-compressed
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
