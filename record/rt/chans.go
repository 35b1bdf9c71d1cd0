//go:build go1.21

package rt

import (
	"sync"
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
type channel struct {
	send, recv   sync.Mutex
	sends, recvs int  // sends and receives written
	taken        int  // room tokens taken by sends
	values       int  // value tokens given and not yet taken
	slots        bool // its free slots given as tokens, when first met
	name         string
	// unpaired: a select used the channel; its sends and receives are
	// no longer all seen, so no more tokens are written for it (close
	// excepted).
	unpaired bool
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

// chanOf is p's channel, its free slots given by thread when first met;
// mu is held.
func chanOf(p unsafe.Pointer, capacity int, thread, loc string) *channel {
	c := channelAt(p)
	if !c.slots {
		c.slots = true
		for i := 0; i < freeSlots(capacity); i++ {
			message(thread, "give", c.name+".r", loc)
		}
	}
	return c
}

// channelAt is p's channel, named when first met; mu is held.
func channelAt(p unsafe.Pointer) *channel {
	c := chans[p]
	if c == nil {
		c = &channel{name: fixedName(p, "", nil, "ch")}
		chans[p] = c
	}
	return c
}

// SendPre starts the send statement `ch <- v` that follows it: it gives
// a ch#N token and holds the channel's send lock until SendPost.
func SendPre[T any](ch chan<- T, loc string) {
	if !on {
		return
	}
	mu.Lock()
	th := self()
	c := chanOf(pointer(ch), cap(ch), th, loc)
	mu.Unlock()
	c.send.Lock()
	mu.Lock()
	c.sends++
	if !c.unpaired {
		message(th, "give", c.name, loc)
		c.values++
	}
	mu.Unlock()
}

// SendPost ends the send: it takes a room token once the receive that
// made room is in the trace (the receiver writes its give just after its
// receive returns). A channel larger than maxSlots lets its first C sends
// go without one.
func SendPost[T any](ch chan<- T, loc string) {
	if !on {
		return
	}
	mu.Lock()
	c := chanOf(pointer(ch), cap(ch), self(), loc)
	free := freeSlots(cap(ch))
	takes := (cap(ch) <= maxSlots || c.sends > cap(ch)) && !c.unpaired
	if takes && awaitReceive(c, c.taken+1-free) {
		message(self(), "take", c.name+".r", loc)
		c.taken++
	}
	mu.Unlock()
	c.send.Unlock()
}

// awaitReceive waits until receive j of c is in the trace; mu is held. A
// receive made where the recorder does not see it (a select, uninstrumented
// code) is never written: after a second the send goes on without its
// token.
func awaitReceive(c *channel, j int) bool {
	if c.recvs >= j {
		return true
	}
	done := false
	t := time.AfterFunc(time.Second, func() {
		mu.Lock()
		done = true
		cond.Broadcast()
		mu.Unlock()
	})
	for c.recvs < j && !done && !c.unpaired {
		cond.Wait()
	}
	t.Stop()
	return c.recvs >= j && !c.unpaired
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
	mu.Lock()
	c := chanOf(pointer(ch), cap(ch), self(), loc)
	mu.Unlock()
	c.recv.Lock()
	defer c.recv.Unlock()
	v, ok := <-ch
	mu.Lock()
	defer mu.Unlock()
	th := self()
	if !ok {
		message(th, "wait", c.name+".c", loc)
		return v, ok
	}
	c.recvs++
	if c.unpaired {
		return v, ok
	}
	// A value no instrumented send gave (time.After's, the standard
	// library's, another module's) has no token to take: its sender's
	// order is not recorded.
	if c.values > 0 {
		message(th, "take", c.name, loc)
		c.values--
	}
	message(th, "give", c.name+".r", loc)
	cond.Broadcast()
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
			c.slots, c.unpaired = true, true // no tokens from now on
			cond.Broadcast()
			mu.Unlock()
		}
	}
	return ch
}

// Close posts ch#N.c, then closes ch.
func Close[T any](ch chan<- T, loc string) {
	if on {
		mu.Lock()
		th := self()
		message(th, "post", chanOf(pointer(ch), cap(ch), th, loc).name+".c", loc)
		mu.Unlock()
	}
	close(ch)
}
