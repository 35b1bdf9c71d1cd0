//go:build go1.21

package rt

import (
	"io"
	"math/rand"
	"testing"
	"unsafe"
)

// busyEvents is a stream shaped like testdata/bench/busy's: a sender
// and four workers on a channel, a map and a counter under a lock.
func busyEvents(n int) []record {
	type store struct {
		mu    [8]byte
		hits  map[int]int
		total int
	}
	s := &store{hits: map[int]int{}}
	ch := unsafe.Pointer(new(int))
	rng := rand.New(rand.NewSource(1))
	recs := make([]record, n+16)
	k := 0
	add := func(g uint64, kd kind, a ref, loc string) {
		r := &recs[k]
		r.pack(g, &a, loc)
		r.meta.Store(uint64(kd | kindOf(0, packHow(&a))))
		k++
	}
	one := func(o op) kind { return kind(o) << 8 }
	rw := one(opR) | kind(opW+1)<<16
	for k < n {
		add(1, one(opGive), object(ch, "", nil, chanTag), "busy/busy.go:50 Run")
		add(1, one(opTake), object(ch, "", nil, roomTag), "busy/busy.go:50 Run")
		w := uint64(2 + rng.Intn(4))
		add(w, one(opTake)|kind(opGive+1)<<16|room, object(ch, "", nil, chanTag), "busy/busy.go:41 Run")
		add(w, one(opAcq), object(unsafe.Pointer(&s.mu), "busy.Store.mu", s, rwmutexTag), "busy/busy.go:20 (*Store).Hit")
		add(w, one(opR), variable("busy.Store.hits", s), "busy/busy.go:21 (*Store).Hit")
		add(w, rw, mapOf(unsafe.Pointer(&s.hits), "busy.Store.hits"), "busy/busy.go:21 (*Store).Hit")
		add(w, rw, variable("busy.Store.total", s), "busy/busy.go:22 (*Store).Hit")
		add(w, one(opRel), object(unsafe.Pointer(&s.mu), "busy.Store.mu", s, rwmutexTag), "busy/busy.go:23 (*Store).Hit")
	}
	return recs[:n]
}

// BenchmarkEncoder: what the encoder costs a record, on one goroutine,
// the ring left out.
func BenchmarkEncoder(b *testing.B) {
	recs := busyEvents(ringSize)
	e := newEncoder(io.Discard)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := &recs[i&(len(recs)-1)]
		e.encode(r, kind(r.meta.Load()))
	}
}

// BenchmarkEncoderFresh: what the encoder costs a record whose object it
// has not met (a trace of many objects: every line is made), two
// goroutines locking one object after another and writing a field.
func BenchmarkEncoderFresh(b *testing.B) {
	type node struct {
		mu  [8]byte
		val int
	}
	nodes := make([]node, b.N/3+1)
	var recs [3]record
	e := newEncoder(io.Discard)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x := &nodes[i/3]
		r := &recs[i%3]
		var a ref
		var k kind
		switch i % 3 {
		case 0:
			a, k = object(unsafe.Pointer(&x.mu), "objs.Node.mu", x, mutexTag), kindOf(opAcq, howObj)
			r.pack(uint64(1+i/3%2), &a, "objs/objs.go:25 Fill")
		case 1:
			a, k = variable("objs.Node.val", x), kindOf(opR, howVar)|kind(opW+1)<<16
			r.pack(uint64(1+i/3%2), &a, "objs/objs.go:26 Fill")
		case 2:
			a, k = object(unsafe.Pointer(&x.mu), "objs.Node.mu", x, mutexTag), kindOf(opRel, howObj)
			r.pack(uint64(1+i/3%2), &a, "objs/objs.go:27 Fill")
		}
		e.encode(r, k)
	}
}
