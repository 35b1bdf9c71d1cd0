//go:build go1.21

package rt

import (
	"strconv"
	"sync"
	"time"
	"unsafe"
)

// A channel's sends are numbered in the order they enter it and its
// receives in the order they leave it: instrumented sends on one channel
// take turns on its send lock and receives on its receive lock, so the
// k-th numbered send is the k-th the channel holds and, channels being
// FIFO, the k-th receive takes its value. Send k posts ch#N.sk before it
// sends; receive k waits for it and posts ch#N.rk; send k (k > C, C the
// capacity) waits for ch#N.r(k-C) when it returns; close posts ch#N.c,
// which a receive of the zero value waits for.
type channel struct {
	send, recv   sync.Mutex
	sends, recvs int
	name         string
	// unpaired: a select used the channel; its sends and receives are
	// no longer numbered in the channel's order, so no more messages
	// are written for them (close excepted).
	unpaired bool
}

var chans = map[unsafe.Pointer]*channel{}

func chanOf(p unsafe.Pointer) *channel {
	c := chans[p]
	if c == nil {
		c = &channel{name: fixedName(p, "", nil, "ch")}
		chans[p] = c
	}
	return c
}

// SendPre starts the send statement `ch <- v` that follows it: it posts
// ch#N.sk and holds the channel's send lock until SendPost.
func SendPre[T any](ch chan<- T, loc string) {
	if !on {
		return
	}
	mu.Lock()
	c := chanOf(pointer(ch))
	mu.Unlock()
	c.send.Lock()
	mu.Lock()
	c.sends++
	if !c.unpaired {
		message(self(), "post", c.name+".s"+strconv.Itoa(c.sends), loc)
	}
	mu.Unlock()
}

// SendPost ends the send: the send that k-C receives ago made room, or
// for an unbuffered channel the receive that took the value, is waited
// for once its post is in the trace.
func SendPost[T any](ch chan<- T, loc string) {
	if !on {
		return
	}
	mu.Lock()
	c := chanOf(pointer(ch))
	if j := c.sends - cap(ch); j > 0 && !c.unpaired && awaitReceive(c, j) {
		message(self(), "wait", c.name+".r"+strconv.Itoa(j), loc)
	}
	mu.Unlock()
	c.send.Unlock()
}

// awaitReceive waits until receive j of c is in the trace (the receiver
// writes it just after its receive returns); mu is held. A receive made
// where the recorder does not see it (a select, uninstrumented code) is
// never written: after a second the send goes on without the edge.
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
// across the receive and its lines, which follow it.
func Recv2[T any](ch <-chan T, loc string) (T, bool) {
	if !on {
		v, ok := <-ch
		return v, ok
	}
	mu.Lock()
	c := chanOf(pointer(ch))
	mu.Unlock()
	c.recv.Lock()
	defer c.recv.Unlock()
	v, ok := <-ch
	mu.Lock()
	defer mu.Unlock()
	if !ok {
		message(self(), "wait", c.name+".c", loc)
		return v, ok
	}
	c.recvs++
	if c.unpaired {
		return v, ok
	}
	k := strconv.Itoa(c.recvs)
	message(self(), "wait", c.name+".s"+k, loc)
	message(self(), "post", c.name+".r"+k, loc)
	cond.Broadcast()
	return v, ok
}

// Unpaired is the channel operand of a select case: it marks the
// channel unpaired (no more messages) and wakes the sends that wait for
// a receive, which they would now wait for in vain.
func Unpaired[C any](ch C, loc string) C {
	if on {
		if p := pointer(ch); p != nil {
			mu.Lock()
			chanOf(p).unpaired = true
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
		message(self(), "post", chanOf(pointer(ch)).name+".c", loc)
		mu.Unlock()
	}
	close(ch)
}
