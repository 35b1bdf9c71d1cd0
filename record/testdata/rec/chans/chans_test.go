package chans

import "testing"

// TestUnbuffered hands b over an unbuffered channel; done orders the
// sender's last line before the test's.
func TestUnbuffered(t *testing.T) {
	b := &Box{}
	ch := make(chan int)
	done := make(chan struct{})
	go func() {
		b.v = 1
		ch <- 7
		close(done)
	}()
	v := <-ch
	<-done
	if v+b.v != 8 {
		t.Fatal(v)
	}
}

// TestBuffered sends twice on a channel of capacity 1: the second send
// waits for the first receive. ready, next and done keep the lines in
// one order.
func TestBuffered(t *testing.T) {
	ch := make(chan *Box, 1)
	ready, next, done := make(chan bool), make(chan bool), make(chan bool)
	ch <- &Box{v: 1}
	go func() {
		b := <-ch
		b.v++
		close(ready)
		<-next
		for b := range ch {
			b.v++
		}
		close(done)
	}()
	<-ready
	ch <- &Box{v: 2}
	close(ch)
	close(next)
	<-done
}
