//go:build go1.21

package rt

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// An event travels from the goroutine that makes it to the encoder (the
// one goroutine that writes the trace, encoder.go) as a record in the
// ring: raw data, its names still to be found (names.go). The order of
// the trace is the order of tickets: a goroutine takes the next ticket
// with one atomic add at the point where its line belongs (after the
// lock is taken, before it is given back, …), so two events that the
// program's synchronisation orders have their tickets in that order, and
// one goroutine's tickets are in program order. The encoder reads the
// ring in ticket order.

// op is what an event does: its STD op, or a record that writes no line.
type op uint8

const (
	opR op = iota
	opW
	opAcq
	opRel
	opRacq
	opRrel
	opFork
	opBegin
	opEnd
	opPost
	opWait
	opGive
	opTake
	opName // names the goroutine ref.s (ref.n 1: only if it has no name yet)
	opMeet // names the goroutine (g ≠ 0) and ref's object, writes nothing
)

var opText = [...]string{"r", "w", "acq", "rel", "racq", "rrel", "fork", "begin", "end", "post", "wait", "give", "take"}

// how is how the encoder names an event's argument.
type how uint8

const (
	howNone  how = iota // no argument (begin, end)
	howLit              // the text s
	howVar              // variable(hint s, holder obj)
	howElem             // element(array p, index n, hint s)
	howMap              // mapOf(map p, hint s)
	howObj              // object(p, hint s, holder obj, tag), n appended when > 0
	howBoxed            // a ref that does not fit a record, at p
)

// ref names an event's argument: the data the encoder needs to find its
// name, so that the goroutine that makes the event looks nothing up. The
// pointers keep the objects alive until the encoder has numbered them
// (names.go keeps them from then on).
type ref struct {
	how how
	s   string // the text (howLit) or the hint
	tag *tag   // howObj: kind and tail
	n   int    // howElem: the index; howObj: appended after the tail when > 0
	obj unsafe.Pointer
	p   unsafe.Pointer
}

// tag is the kind of an object (which names it when no hint does:
// "sync.Mutex#N", "ch#N") and what its events append to its name (a
// channel's room ".r", a WaitGroup's epoch ".e" and its number).
type tag struct{ kind, tail string }

var (
	mutexTag   = &tag{kind: "sync.Mutex"}
	rwmutexTag = &tag{kind: "sync.RWMutex"}
	chanTag    = &tag{kind: "ch"}
	roomTag    = &tag{kind: "ch", tail: ".r"}
	closeTag   = &tag{kind: "ch", tail: ".c"}
	epochTag   = &tag{kind: "wg", tail: ".e"}
	onceTag    = &tag{kind: "once"}
)

// lit is the argument s itself ("g3", "test#2").
func lit(s string) ref { return ref{how: howLit, s: s} }

// variable is a package-level variable (obj nil) or field hint of the
// struct at obj (docs/record.md, "Names").
func variable(hint string, obj any) ref { return ref{how: howVar, s: hint, obj: pointer(obj)} }

// element is element i of the array at base, reached through hint.
func element(base unsafe.Pointer, i int, hint string) ref {
	return ref{how: howElem, s: hint, n: i, p: base}
}

// mapOf is the map m as a whole, reached through hint.
func mapOf(m unsafe.Pointer, hint string) ref { return ref{how: howMap, s: hint, p: m} }

// object is a lock, channel, WaitGroup, … at p: named when first met, by
// its field or package variable (hint and obj as for variable) or, with
// hint "", by its tag's kind ("sync.Mutex#N", "ch#N"); the name sticks to
// p, and the tag's tail follows it (ch#1.r).
func object(p unsafe.Pointer, hint string, obj any, t *tag) ref {
	return ref{how: howObj, s: hint, obj: pointer(obj), p: p, tag: t}
}

// nth appends n (> 0) to an object's name after its tail: wg#2.e3.
func (r ref) nth(n int) ref {
	r.n = n
	return r
}

// record is one slot of the ring, one cache line: an event as emit packs
// it (pack), or two events of one goroutine in a row (emit2). The ticket
// t of round L = t/ringSize may write its slot once the encoder has read
// the tickets of round L-1 (read), and sets meta to L<<32 | written |
// kind when it has.
type record struct {
	meta atomic.Uint64
	g    uint64         // the goroutine's id; 0: none (opMeet of an object alone)
	loc  unsafe.Pointer // the location's bytes
	s    unsafe.Pointer // the text's or hint's bytes; howObj without a hint: its tag
	lens uint64         // len(loc)<<32 | len(s)
	obj  unsafe.Pointer
	p    unsafe.Pointer
	n    int
}

const written = 1 << 31

// kind is what meta says of a record besides its round: how | op<<8, and
// for a record of two events (op2+1)<<16, and room when the second's
// argument is the first's channel's room (a receive's take, then give).
type kind uint64

const room kind = 1 << 24

func kindOf(o op, h how) kind { return kind(h) | kind(o)<<8 }

func (k kind) op() op     { return op(k >> 8) }
func (k kind) how() how   { return how(k) }
func (k kind) op2() op    { return op(k>>16) - 1 } // of a record of two events
func (k kind) pair() bool { return k>>16&0xff != 0 }

const (
	ringBits  = 12
	ringSize  = 1 << ringBits
	ringMask  = ringSize - 1
	closedBit = 1 << 63 // set in tickets when the trace is closed
)

var (
	tickets padded
	read    padded // the tickets below it are encoded; encMu guards its stores
	ring    []record
)

// padded is an atomic counter alone in its cache line: every core writes
// tickets, and the lines next to it would go back and forth with it.
type padded struct {
	_ [64]byte
	atomic.Uint64
	_ [56]byte
}

// emit writes one event of goroutine g (self()). It takes the event's
// ticket, so it is called where the line belongs; it takes no lock.
// Events after the trace is closed are dropped.
func emit(g uint64, o op, a *ref, loc string) {
	put(g, kindOf(o, packHow(a)), a, loc)
}

// emit2 writes two events of goroutine g in a row: op o then op o2 on
// the same argument (a read and the write of x++), or with k room on the
// argument's room (a receive's take(ch#N), then give(ch#N.r)). One
// ticket stands for both: the goroutine does nothing between them that
// orders it with another, so no event of another need come between.
func emit2(g uint64, o, o2 op, k kind, a *ref, loc string) {
	put(g, kindOf(o, packHow(a))|kind(o2+1)<<16|k, a, loc)
}

// put writes a record of kind k. The events' callers pass their refs by
// address: a ref copied into the call's arguments would be read back
// before its stores have landed (a store-forwarding stall).
func put(g uint64, k kind, a *ref, loc string) {
	t := tickets.Add(1) - 1
	if t&closedBit != 0 {
		return
	}
	if t >= read.Load()+ringSize {
		awaitSlot(t)
	}
	r := &ring[t&ringMask]
	round := t >> ringBits << 32
	r.pack(g, a, loc)
	r.meta.Store(round | written | uint64(k))
	if t%batch == 0 {
		wake()
	}
}

// awaitSlot waits until the encoder has read the ring's previous round
// from ticket t's slot (the ring is full: the program makes events faster
// than they are encoded): it takes its turn to encode (asleep until then,
// not spinning, which would take the core from the encoder), and yields
// while the slot waits for a ticket not written yet.
func awaitSlot(t uint64) {
	for t >= read.Load()+ringSize {
		help()
		if t >= read.Load()+ringSize {
			runtime.Gosched()
		}
	}
}

// packHow is the how a ref is written with: howBoxed for an object with
// both a hint and a tail, which a record has no room for.
func packHow(a *ref) how {
	if a.how == howObj && a.s != "" && a.tag.tail != "" {
		return howBoxed
	}
	return a.how
}

// pack writes the event's data into the record.
func (r *record) pack(g uint64, a *ref, loc string) {
	r.g = g
	r.loc, r.obj, r.p, r.n = unsafe.Pointer(unsafe.StringData(loc)), a.obj, a.p, a.n
	r.s, r.lens = unsafe.Pointer(unsafe.StringData(a.s)), uint64(len(loc))<<32|uint64(len(a.s))
	switch packHow(a) {
	case howObj:
		if a.s == "" {
			r.s = unsafe.Pointer(a.tag)
		}
	case howBoxed:
		box := *a
		r.p = unsafe.Pointer(&box)
	}
}

// unpack is the ref a record holds, with its location.
func (r *record) unpack(h how) (ref, string) {
	loc := unsafe.String((*byte)(r.loc), int(r.lens>>32))
	switch h {
	case howBoxed:
		return *(*ref)(r.p), loc
	case howObj:
		if uint32(r.lens) == 0 {
			return ref{how: h, tag: (*tag)(r.s), obj: r.obj, p: r.p, n: r.n}, loc
		}
	}
	s := unsafe.String((*byte)(r.s), int(uint32(r.lens)))
	return ref{how: h, s: s, obj: r.obj, p: r.p, n: r.n}, loc
}
