//go:build go1.21

package rt

import (
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// encoder turns the ring's records into the trace: in ticket order, each
// record into its line (names.go, lines.go), the lines compressed (lz.go)
// into the gzip file. It runs on a goroutine of its own (encodeLoop),
// beside the program's, which only fill the ring. A goroutine that finds
// the ring full takes its turn to encode (help), so the program never
// waits for a sleeping encoder. The stream is
// flushed to the file every flushEvery, so that a test binary that dies
// leaves the lines of all but its last moments (the recorder keeps them
// and marks the trace cut), and at the end of each test and of the trace.
type encoder struct {
	w      io.Writer
	err    error  // the first write error: the rest is not written
	pos    uint64 // the next ticket to encode
	names  namer
	cache  cache
	lines  lines
	lz     lz
	dirty  bool // lines since the last flush
	closed bool
	made   int // lines made (for the tests)
}

const (
	batch      = 512 // tickets between nudges of a sleeping encoder; records a round
	flushEvery = 50 * time.Millisecond
	outChunk   = 64 << 10 // compressed bytes written to the file at a time
)

var (
	encMu sync.Mutex // guards enc
	enc   *encoder
)

func newEncoder(w io.Writer) *encoder {
	return &encoder{w: w, names: newNamer(), cache: newCache(), lines: newLines(shifts{}), lz: newLZ()}
}

// help encodes what the ring holds, after the goroutine encoding now if
// there is one (it waits for encMu, asleep).
func help() {
	encMu.Lock()
	enc.drain(^uint64(0))
	encMu.Unlock()
}

// drain encodes the records of the ring in order, up to ticket upTo (not
// included) or the first one not written yet; encMu is held. It frees
// their slots every freeEvery records and when it stops.
func (e *encoder) drain(upTo uint64) {
	from := e.pos
	for e.pos < upTo && !e.closed {
		r := &ring[e.pos&ringMask]
		m := r.meta.Load()
		if m>>32 != e.pos>>ringBits || m&written == 0 {
			break
		}
		e.encode(r, kind(m&(written-1)))
		e.pos++
		if e.pos%freeEvery == 0 {
			read.Store(e.pos)
		}
	}
	read.Store(e.pos)
	if e.pos != from {
		e.dirty = true
		if len(e.lz.z.out) >= outChunk {
			e.writeOut()
		}
	}
}

const freeEvery = 64

// drainAll encodes every record below upTo; encMu is held. It waits for
// the goroutines that have their tickets but have not written them yet (a
// moment: it yields to them, as a timer would sleep a millisecond), and
// lets go of encMu meanwhile: one of them may wait for it (awaitSlot).
func drainAll(upTo uint64) {
	for enc.pos < upTo && !enc.closed {
		enc.drain(upTo)
		if enc.pos < upTo {
			encMu.Unlock()
			runtime.Gosched()
			encMu.Lock()
		}
	}
}

// flushTo writes out every line below ticket upTo; with last, it closes
// the stream.
func flushTo(upTo uint64, last bool) {
	encMu.Lock()
	defer encMu.Unlock()
	drainAll(upTo)
	e := enc
	if e.closed {
		return
	}
	if last {
		e.lz.close()
		e.writeOut()
		e.closed = true
		return
	}
	e.flush()
}

// encodeLoop is the encoder's own goroutine: it encodes what the ring
// holds, and sleeps when the ring is empty, until a goroutine that makes
// events wakes it (emit, every batch tickets) or the stream is due to be
// written out (every flushEvery), until the trace is closed.
func encodeLoop() {
	flushed := time.Now()
	timer := time.NewTimer(flushEvery)
	for {
		encMu.Lock()
		e := enc
		if e.closed {
			encMu.Unlock()
			return
		}
		from := e.pos
		e.drain(e.pos + batch)
		progress := e.pos != from
		due := flushEvery - time.Since(flushed)
		if due <= 0 {
			if e.dirty {
				e.flush()
			}
			flushed, due = time.Now(), flushEvery
		}
		encMu.Unlock()
		if !progress {
			rest(timer, due)
		}
	}
}

var (
	sleeping atomic.Bool
	wakeup   = make(chan struct{}, 1)
)

// rest sleeps the encoder for d at most.
func rest(t *time.Timer, d time.Duration) {
	sleeping.Store(true)
	t.Reset(d)
	select {
	case <-wakeup:
	case <-t.C:
	}
	sleeping.Store(false)
}

// wake wakes the encoder if it sleeps.
func wake() {
	if sleeping.Load() {
		select {
		case wakeup <- struct{}{}:
		default:
		}
	}
}

// encode writes the line of record r of kind k (or only names what it
// names). Most records are the line after the one the pending match
// copies last (lz.next): the match grows over it, nothing is looked up.
// (A record that writes no line, a literal, a boxed ref have no line with
// their key.)
func (e *encoder) encode(r *record, k kind) {
	if !e.lz.growOver(r, k) {
		e.record(r, k)
	}
}

// record writes the line of a record that growOver did not take.
func (e *encoder) record(r *record, k kind) {
	if k.op() >= opName {
		e.silent(r, k.op(), k.how())
		return
	}
	e.lz.write(e.lineOf(r, k), nil)
}

// silent does what a record that writes no line says.
//
//go:noinline
func (e *encoder) silent(r *record, o op, h how) {
	a, _ := r.unpack(h)
	switch o {
	case opName:
		if e.names.nameThread(r.g, a.s, a.n == 1) {
			e.forget() // the cached lines of g carry its old name
		}
	case opMeet:
		if r.g != 0 {
			e.names.thread(r.g)
		}
		e.names.arg(&a)
	}
}

// lineOf is the line of a record, from the cache or made.
func (e *encoder) lineOf(r *record, k kind) *line {
	// A literal's text and a boxed ref are made for the event: not worth
	// a cache entry.
	if h := k.how(); h == howLit || h == howBoxed {
		return e.newLine(r, k)
	}
	if l := e.cache.get(r, k); l != nil {
		return l
	}
	l := e.newLine(r, k)
	e.cache.put(r, k, l)
	return l
}

// newLine makes the line of a record: its thread's and argument's names,
// its text (two lines for a record of two events).
//
//go:noinline
func (e *encoder) newLine(r *record, k kind) *line {
	e.made++
	a, loc := r.unpack(k.how())
	thread, first := e.names.thread(r.g), named{k.op(), e.names.arg(&a)}
	// Its site: the location, the op, the hint or tag (not a literal's
	// text, made for the event).
	at := uint64(uintptr(r.loc)) * 0x165667b19e3779f9
	site := at ^ uint64(k)<<40
	if h := k.how(); h != howLit && h != howBoxed {
		site ^= uint64(uintptr(r.s)) * 0x27d4eb2f165667c5
	}
	if !k.pair() {
		return e.lines.make(r.g, site, at, thread, loc, first)
	}
	second := first
	second.op = k.op2()
	if k&room != 0 {
		a.tag = roomTag
		second.arg = e.names.arg(&a)
	}
	return e.lines.make(r.g, site, at, thread, loc, first, second)
}

// forget drops the lines (the names stay): a goroutine's name changed.
func (e *encoder) forget() {
	e.lz.forget()
	clear(e.cache.slots)
	for _, t := range e.lines.like {
		clear(t)
	}
}

// flush writes out every line so far.
func (e *encoder) flush() {
	e.lz.align()
	e.writeOut()
	e.dirty = false
}

func (e *encoder) writeOut() {
	if e.err == nil && len(e.lz.z.out) > 0 {
		_, e.err = e.w.Write(e.lz.z.out)
	}
	e.lz.z.out = e.lz.z.out[:0]
}
