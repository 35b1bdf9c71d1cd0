//go:build go1.21

package rt

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// A channel is two tokens (docs/spec.md §3): ch#N, one given by each send
// before it sends and taken by each receive after it returns, so that the
// k-th receive follows the k-th send (a take takes the oldest give); and
// ch#N.r, one given by each receive after it returns and taken by each
// send when it returns, so that a send completes only after a receive
// made room: an unbuffered channel's k-th send after the k-th receive, a
// buffered one's (k+C)-th after the k-th, its C free slots given when the
// recorder first meets it. Counting rather than pairing, the tokens let a
// reordering hand a value to another receiver, as the channel would.
// Instrumented sends on one channel take turns on its send lock and
// receives on its receive lock, so that the k-th give is the k-th value
// the channel holds; close posts ch#N.c, which a receive of the zero
// value waits for.
//
// The counters shared by the two sides are atomic, and each side writes
// its line before it counts it: a receive that sees a value token counted
// sees its give in the trace, a send that sees a receive counted sees its
// give of room.
type channel struct {
	// Read by both sides, written once (unpaired: when a select uses the
	// channel, after which its sends and receives are no longer all seen,
	// so no more tokens are written for it, close excepted).
	p        unsafe.Pointer
	slots    bool // its free slots given, when first met; mu guards it
	unpaired atomic.Bool
	_        line64
	// The sends' side: a cache line of its own, apart from the
	// receives', which another core writes.
	send  sync.Mutex
	sends int // sends so far; send guards it
	taken int // room tokens taken by sends; send guards it
	_     line64
	// The receives' side.
	recv    turn
	recvs   atomic.Int64 // receives written
	takes   int64        // value tokens taken; recv guards it
	waiting atomic.Int32 // sends waiting for a receive to be written
	_       line64
	given   atomic.Int64 // value tokens given, written by the sends
}

// line64 pads a struct to the next cache line.
type line64 [64]byte

// turn is the receive lock, held across the receive, which may block
// for long: a goroutine that finds it taken sleeps at once, where
// sync.Mutex would spin first, in vain (a futex lock, Drepper's "Futexes
// are tricky", with a channel of one token for the futex).
type turn struct {
	state atomic.Int32 // 0 free, 1 held, 2 held and maybe waited for
	wake  chan struct{}
}

func (t *turn) Lock() {
	if t.state.CompareAndSwap(0, 1) {
		return
	}
	for t.state.Swap(2) != 0 {
		<-t.wake
	}
}

func (t *turn) Unlock() {
	if t.state.Swap(0) == 2 {
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
}

// maxSlots bounds the free slots given as room tokens when the recorder
// meets a buffered channel. A larger channel gets none: its first C sends
// take no room token and the later ones take the one of the receive C
// before them, which Go orders before them, only fewer runs than Go
// allows (the sends that went first stay unordered).
const maxSlots = 1 << 10

// freeSlots is how many room tokens a channel of capacity c gets when
// first met.
func freeSlots(c int) int {
	if c > maxSlots {
		return 0
	}
	return c
}

var chans = map[unsafe.Pointer]*channel{}

// chanOf is p's channel, its free slots given by thread when first met.
// A channel met before is found without a lock.
func chanOf(p unsafe.Pointer, capacity int, thread uint64, loc string) *channel {
	h := &chanTab[uintptr(p)>>4&uintptr(len(chanTab)-1)]
	if c := h.Load(); c != nil && c.p == p {
		return c
	}
	mu.Lock()
	defer mu.Unlock()
	c := channelAt(p)
	if !c.slots {
		c.slots = true
		for i := 0; i < freeSlots(capacity); i++ {
			m := c.room()
			message(thread, opGive, &m, loc)
		}
	}
	h.Store(c)
	return c
}

// chanTab holds channels met before, by address: the lookup of chanOf
// that takes no lock. A channel whose slot another took is found in
// chans, under mu.
var chanTab [1 << 10]atomic.Pointer[channel]

// channelAt is p's channel, named when first met; mu is held.
func channelAt(p unsafe.Pointer) *channel {
	c := chans[p]
	if c == nil {
		c = &channel{p: p, recv: turn{wake: make(chan struct{}, 1)}}
		chans[p] = c
		if on {
			a := c.values()
			emit(0, opMeet, &a, "")
		}
	}
	return c
}

// values, room and closing are the channel's tokens ch#N and ch#N.r and
// its message ch#N.c.
func (c *channel) values() ref  { return object(c.p, "", nil, chanTag) }
func (c *channel) room() ref    { return object(c.p, "", nil, roomTag) }
func (c *channel) closing() ref { return object(c.p, "", nil, closeTag) }

// SendPre starts the send statement `ch <- v` that follows it: it gives
// a ch#N token and holds the channel's send lock until SendPost.
func SendPre[T any](ch chan<- T, loc string) {
	if !on {
		return
	}
	th := self()
	c := chanOf(pointer(ch), cap(ch), th, loc)
	c.send.Lock()
	c.sends++
	if !c.unpaired.Load() {
		m := c.values()
		message(th, opGive, &m, loc)
		c.given.Add(1)
	}
}

// SendPost ends the send: it takes a room token once the receive that
// made room is in the trace (the receiver writes its give just after its
// receive returns). A channel larger than maxSlots lets its first C sends
// go without one.
func SendPost[T any](ch chan<- T, loc string) {
	if !on {
		return
	}
	th := self()
	c := chanOf(pointer(ch), cap(ch), th, loc)
	free := freeSlots(cap(ch))
	takes := (cap(ch) <= maxSlots || c.sends > cap(ch)) && !c.unpaired.Load()
	if takes && awaitReceive(c, int64(c.taken+1-free)) {
		m := c.room()
		message(th, opTake, &m, loc)
		c.taken++
	}
	c.send.Unlock()
}

// awaitReceive waits until receive j of c is in the trace. It is usually
// there already, or a moment away (the receiver has yet to write it): the
// send yields a few times before it sleeps. A receive made where the
// recorder does not see it (a select, uninstrumented code) is never
// written: after a second the send goes on without its token.
func awaitReceive(c *channel, j int64) bool {
	for i := 0; i < 20 && c.recvs.Load() < j && !c.unpaired.Load(); i++ {
		runtime.Gosched()
	}
	if c.recvs.Load() < j && !c.unpaired.Load() {
		c.waiting.Add(1)
		mu.Lock()
		done := false
		t := time.AfterFunc(time.Second, func() {
			mu.Lock()
			done = true
			cond.Broadcast()
			mu.Unlock()
		})
		for c.recvs.Load() < j && !done && !c.unpaired.Load() {
			cond.Wait()
		}
		mu.Unlock()
		t.Stop()
		c.waiting.Add(-1)
	}
	return c.recvs.Load() >= j && !c.unpaired.Load()
}

// Recv is the receive expression <-ch.
func Recv[T any](ch <-chan T, loc string) T {
	v, _ := Recv2(ch, loc)
	return v
}

// Recv2 is the receive v, ok := <-ch: it holds the channel's receive lock
// across the receive and its lines, which follow it: it takes a ch#N
// token and gives a room one.
func Recv2[T any](ch <-chan T, loc string) (T, bool) {
	if !on {
		v, ok := <-ch
		return v, ok
	}
	th := self()
	c := chanOf(pointer(ch), cap(ch), th, loc)
	c.recv.Lock()
	v, ok := <-ch
	if !ok {
		m := c.closing()
		message(th, opWait, &m, loc)
		c.recv.Unlock()
		return v, ok
	}
	if !c.unpaired.Load() {
		// A value no instrumented send gave (time.After's, the standard
		// library's, another module's) has no token to take: its
		// sender's order is not recorded.
		if c.given.Load() > c.takes {
			c.takes++
			m := c.values()
			message2(th, opTake, opGive, room, &m, loc)
		} else {
			m := c.room()
			message(th, opGive, &m, loc)
		}
	}
	c.recvs.Add(1)
	if c.waiting.Load() > 0 { // a send waits for this receive
		mu.Lock()
		cond.Broadcast()
		mu.Unlock()
	}
	c.recv.Unlock()
	return v, ok
}

// Unpaired is the channel operand of a select case: it marks the
// channel unpaired (no more tokens) and wakes the sends that wait for a
// receive, which they would now wait for in vain.
func Unpaired[C any](ch C, loc string) C {
	if on {
		if p := pointer(ch); p != nil {
			mu.Lock()
			c := channelAt(p)
			c.slots = true // no tokens from now on
			c.unpaired.Store(true)
			cond.Broadcast()
			mu.Unlock()
		}
	}
	return ch
}

// Close posts ch#N.c, then closes ch.
func Close[T any](ch chan<- T, loc string) {
	if on {
		th := self()
		m := chanOf(pointer(ch), cap(ch), th, loc).closing()
		message(th, opPost, &m, loc)
	}
	close(ch)
}
