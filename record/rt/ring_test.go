//go:build go1.21

package rt

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/conc-dev/conc/internal/testflag"
)

// buffer is the trace file of the tests: a buffer that can be read while
// the trace is written.
type buffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	closed bool
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *buffer) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

func (b *buffer) bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.b.Bytes()...)
}

// restart starts a trace into a fresh buffer, the runtime's state as a
// new test binary has it; the trace is closed when the test ends.
func restart(t testing.TB) *buffer {
	tickets.Store(0)
	read.Store(0)
	closed.Store(false)
	finishing = sync.Once{}
	mainID.Store(0)
	mainBusy.Store(false)
	early, ended = map[uint64]bool{}, map[int]bool{}
	forks, tests = 0, 0
	chans, groups, readers = map[unsafe.Pointer]*channel{}, map[*sync.WaitGroup]*group{}, map[unsafe.Pointer]uint64{}
	chanTab = [len(chanTab)]atomic.Pointer[channel]{}
	b := &buffer{}
	start(b, false)
	t.Cleanup(func() {
		Finish()
		on = false
	})
	return b
}

// threadLines splits a trace's text into its lines by thread.
func threadLines(text string) (all []string, by map[string][]string) {
	by = map[string][]string{}
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		all = append(all, l)
		th := l[:strings.IndexByte(l, '|')]
		by[th] = append(by[th], l[len(th):])
	}
	return all, by
}

// The whole runtime under load: goroutines take a lock in turn, pass
// values over a channel and touch variables of their own, many more
// events than the ring holds. The trace holds each goroutine's events in
// program order, the lock's critical sections one after another, each
// token taken after it was given; a flush leaves a readable prefix.
func TestRingOrder(t *testing.T) {
	b := restart(t)
	const workers = 4
	rounds := testflag.N(3000, 30000)
	defer stopNowAndThen()()
	ringWork(workers, rounds)
	flush()
	prefix, err := gunzipPrefix(t, b.bytes())
	if err == nil || prefix == "" {
		t.Fatalf("after flush: %d bytes, %v; want a prefix that ends early", len(prefix), err)
	}
	Finish()
	text, err := gunzipPrefix(t, b.bytes())
	if err != nil || !strings.HasPrefix(text, prefix) {
		t.Fatalf("the trace: %v, or the flushed prefix is not its prefix", err)
	}
	all, by := threadLines(text)
	if len(all) != workers*rounds*6+3 {
		t.Errorf("%d lines, want %d", len(all), workers*rounds*6+3)
	}
	for w := 0; w < workers; w++ {
		one := "|acq(pkg.lk)|l.go:1\n|w(pkg.shared)|l.go:2\n|rel(pkg.lk)|l.go:3\n|r(pkg.own" + strconv.Itoa(w) + ")|l.go:4\n"
		if w%2 == 0 {
			one += "|give(ch#1)|c.go:1\n|take(ch#1.r)|c.go:1\n"
		} else {
			one += "|take(ch#1)|c.go:2\n|give(ch#1.r)|c.go:2\n"
		}
		if got := strings.Join(by["w"+strconv.Itoa(w)], ""); got != strings.Repeat(one, rounds) {
			t.Errorf("w%d's lines are not its program order, %d rounds of\n%s", w, rounds, one)
		}
	}
	checkOrders(t, all, map[string]int{"ch#1.r": 3})
}

// stopNowAndThen stops the encoder now and then, as when its core is
// taken, so that the ring fills and the goroutines wait for it; it
// returns what ends it.
func stopNowAndThen() func() {
	stop := make(chan bool)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			encMu.Lock()
			time.Sleep(20 * time.Millisecond)
			encMu.Unlock()
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return func() { close(stop) }
}

// ringWork runs TestRingOrder's goroutines: w0… take the lock pkg.lk in
// turn, write pkg.shared under it, read a variable of their own, and send
// (even ones) or receive (odd ones) on a channel of 3 slots, whose free
// slots the calling goroutine gives.
func ringWork(workers, rounds int) {
	var lk sync.Mutex
	var shared int
	own := make([]int, workers)
	ch := make(chan int, 3)
	chanOf(pointer(ch), cap(ch), self(), "c.go:0")
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			Start("w" + strconv.Itoa(w))
			for i := 0; i < rounds; i++ {
				Lock(&lk, nil, "pkg.lk", "l.go:1")
				shared++
				W(&shared, nil, "pkg.shared", "l.go:2")
				Unlock(&lk, nil, "pkg.lk", "l.go:3")
				R(&own[w], nil, "pkg.own"+strconv.Itoa(w), "l.go:4")
				if w%2 == 0 {
					SendPre(ch, "c.go:1")
					ch <- i
					SendPost(ch, "c.go:1")
				} else {
					Recv(ch, "c.go:2")
				}
			}
		}(w)
	}
	wg.Wait()
}

// checkOrders: the trace's lines keep pkg.lk's critical sections apart,
// pkg.shared written under the lock, and no token taken before it is
// given (tokens: those given before the trace).
func checkOrders(t *testing.T, all []string, tokens map[string]int) {
	t.Helper()
	holder := ""
	for i, l := range all {
		th, rest := l[:strings.IndexByte(l, '|')], l[strings.IndexByte(l, '|'):]
		switch {
		case strings.HasPrefix(rest, "|acq(pkg.lk)"):
			if holder != "" {
				t.Fatalf("line %d: %s takes the lock %s holds", i, th, holder)
			}
			holder = th
		case strings.HasPrefix(rest, "|rel(pkg.lk)"), strings.HasPrefix(rest, "|w(pkg.shared)"):
			if holder != th {
				t.Fatalf("line %d: %s %s, the lock held by %q", i, th, rest, holder)
			}
			if strings.HasPrefix(rest, "|rel") {
				holder = ""
			}
		case strings.HasPrefix(rest, "|give("), strings.HasPrefix(rest, "|take("):
			s := rest[6:strings.IndexByte(rest, ')')]
			if rest[1] == 'g' {
				tokens[s]++
			} else if tokens[s]--; tokens[s] < 0 {
				t.Fatalf("line %d: %s takes %s, none given", i, th, s)
			}
		}
	}
}
