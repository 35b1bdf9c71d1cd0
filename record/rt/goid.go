//go:build go1.21

package rt

import (
	"runtime"
	"strconv"
	"sync/atomic"
	"unsafe"
)

// fastID reads goroutine ids from the runtime's g: getg returns the
// running goroutine's g, the id is the word at off.
type fastID struct {
	getg func() unsafe.Pointer
	off  int
}

// fast is set by SetGetg once calibrate has found the offset; nil: goid
// reads the stack header instead.
var fast atomic.Pointer[fastID]

// goid is the calling goroutine's id: a load from its g when SetGetg has
// calibrated it, else slowGoid (about a microsecond, under a lock of the
// runtime's that every goroutine shares).
func goid() uint64 {
	if f := fast.Load(); f != nil {
		return *(*uint64)(unsafe.Add(f.getg(), f.off))
	}
	return slowGoid()
}

// slowGoid reads the id from the stack header "goroutine N [": the
// standard library has no public way to get it.
func slowGoid() uint64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	b := buf[len("goroutine "):n]
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	id, _ := strconv.ParseUint(string(b[:i]), 10, 64)
	return id
}

// SetGetg is called by the init function the recorder adds to the
// package under test, with its assembly getg (the standard library has
// none, and the recorder's own package cannot hold assembly: its
// directory exists only in the overlay). The first call calibrates.
func SetGetg(getg func() unsafe.Pointer) {
	if !on || fast.Load() != nil {
		return
	}
	if off, ok := calibrate(getg); ok {
		fast.Store(&fastID{getg: getg, off: off})
	}
}

// gScan is how far into the g calibrate looks: the id is a few words in
// (152 bytes in Go 1.25), the g is several hundred bytes long.
const gScan = 320

// calibrate finds the offset in g that holds the id: the first word
// equal to the id that slowGoid reads in each of four goroutines
// (distinct ids, so a word that only happens to match in one is ruled
// out). The layout of g is the runtime's own and changes between Go
// versions: without an offset that fits all four, goid stays slow.
func calibrate(getg func() unsafe.Pointer) (int, bool) {
	var samples [4][gScan / 8]uint64
	var ids [4]uint64
	done := make(chan bool)
	for k := range samples {
		go func() {
			samples[k] = *(*[gScan / 8]uint64)(getg())
			ids[k] = slowGoid()
			done <- true
		}()
		<-done
	}
	for w := 0; w < gScan/8; w++ {
		fits := true
		for k := range samples {
			fits = fits && samples[k][w] == ids[k]
		}
		if fits {
			return w * 8, true
		}
	}
	return 0, false
}
