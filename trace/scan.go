package trace

import (
	"encoding/binary"
	"math/bits"

	"github.com/conc-dev/conc/model"
)

// The reader's fast path splits a line in one pass, eight bytes at a time:
// it finds the '|' after the thread, recognises the opcode from the word
// after it, finds the ')' closing the argument while hashing the name, and
// then the newline. Every field is read once and the names are interned
// with the hash computed during the scan. A line it is not sure of (long
// or odd opcodes, a ')' inside a name, a line cut by the buffer's end, bad
// input) goes to the byte-wise path in parse.go, which decides it, so both
// paths accept and reject the same lines with the same messages.

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
	bars  = ones * '|'
	nls   = ones * '\n'
	crs   = ones * '\r'
	dels  = ones * 0x7f
	paren = ones * ')'
)

// zeroBytes sets the top bit of each zero byte of x. Only the lowest mark
// is exact (a borrow can mark a byte above it), and only it is used.
func zeroBytes(x uint64) uint64 { return (x - ones) & ^x & highs }

// firstMark is the index of the byte marked lowest in m, 8 when none is.
func firstMark(m uint64) int { return bits.TrailingZeros64(m) >> 3 }

// low keeps the first n (< 8) bytes of w (n&7 tells the compiler the
// shift is below 64).
func low(w uint64, n int) uint64 { return w & (1<<(8*uint(n&7)) - 1) }

// slack is the spare capacity after a Reader's buffer, so that a word load
// up to eight bytes past the end of the data stays within the slice, and
// headroom the bytes allocated before it, so that quickScan may load the
// eight bytes before a line's newline even in the buffer's first line.
const (
	slack    = 16
	headroom = 8
)

func newBuf(n int) []byte { return make([]byte, headroom+n, headroom+n+slack)[headroom:] }

// word loads the eight bytes at b[i:], which may reach into the slack.
func word(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i : i+8 : cap(b)]) }

// opShape is what the word after the thread's '|' must start with for an
// opcode: prefix under mask ("r(", "acq(", "begin").
type opShape struct {
	prefix, mask uint64
	size         int // bytes of the prefix; an argument starts after them
	kind         model.Op
	arg          bool // the opcode takes an argument closed by ')'
}

// opShapes is indexed by opIndex, a perfect hash of the opcode's first two
// bytes, so that recognising an opcode is one load and one compare instead
// of a chain of unpredictable branches. Empty slots match no word.
var opShapes = func() (t [16]opShape) {
	for i := range t {
		t[i].prefix = 1
	}
	for kind, name := range OpName {
		if name == "" || model.Op(kind).IsExtension() {
			continue // the extension's lines take the general path (parse)
		}
		arg := model.Op(kind) != model.OpBegin && model.Op(kind) != model.OpEnd
		if arg {
			name += "("
		}
		var w [8]byte
		copy(w[:], name)
		prefix := binary.LittleEndian.Uint64(w[:])
		sh := &t[opIndex(prefix)]
		if sh.mask != 0 {
			panic("trace: opIndex is not a perfect hash of the opcodes")
		}
		*sh = opShape{prefix: prefix, mask: 1<<(8*len(name)) - 1, size: len(name), kind: model.Op(kind), arg: arg}
	}
	return t
}()

// opIndex hashes the first two bytes of w; the multiplier was searched for
// one that sends the eight opcodes to distinct slots.
func opIndex(w uint64) uint64 { return (w & 0xFFFF * 0xe4b06ce60741c7a9) >> 60 }

// fastLine parses the line at r.start in one pass into ev. ok=false means
// it did not decide the line (nothing was consumed or interned); otherwise
// msg and emit are as parse's.
//
// It is one long function on purpose: a Go call saves every live register,
// and the usual line (short names, no location, a known thread and
// variable) then takes no call at all. Once the opcode is known, one
// switch on it does the rest, so a trace's random mix of opcodes costs one
// mispredicted jump per line, not one per test of the opcode.
func (r *Reader) fastLine(ev *Event) (msg string, emit, ok bool) {
	b, p, lim := r.buf, r.start, r.end
	tw := word(b, p)
	bar := p + firstMark(zeroBytes(tw^bars)|zeroBytes(tw^nls)|zeroBytes(tw^crs))
	if bar == p+8 {
		if bar, ok = scanThread(b, p, lim); !ok {
			return "", false, false
		}
	}
	if bar+1 >= lim || b[bar] != '|' || bar == p {
		return "", false, false
	}
	w := word(b, bar+1)
	op := &opShapes[opIndex(w)]
	if w&op.mask != op.prefix {
		return "", false, false
	}
	// The argument (or, after begin and end, nothing) up to ')', '|' or
	// a line end, hashed as keyOf does.
	a := bar + 1 + op.size
	x := word(b, a)
	var e int
	var k nameKey
	if m := zeroBytes(x^paren) | zeroBytes(x^bars) | zeroBytes(x^nls) | zeroBytes(x^crs); m != 0 {
		// finishKey for a name of j < 8 bytes, by hand, as in quickLines.
		j := firstMark(m)
		tail := low(x, j)
		hi, lo := bits.Mul64(hashSeed^tail^uint64(j)<<56^mixXor, mixMul)
		e, k.hash, k.key = a+j, hi^lo, tail|uint64(j)<<56
		k.meta = uint32(k.hash>>32)&^0xFF | uint32(j)
	} else {
		e, k = scanName(b, a, lim)
	}
	after := a
	if op.arg {
		if e >= lim || b[e] != ')' || e == a {
			return "", false, false
		}
		after = e + 1
	}
	// The line ends here, or after a location.
	var loc []byte
	nl := after
	if after >= lim || b[after] != '\n' {
		if loc, nl, ok = scanLoc(b, after, lim); !ok {
			return "", false, false
		}
	}
	r.start = nl + 1
	r.stats.Lines++
	t := r.lineThread(b[p:bar], tw)
	*ev = Event{Thread: t, Op: op.kind, Target: -1, Loc: -1}
	if len(loc) > 0 {
		ev.Loc = r.locs.intern(loc)
	}
	msg, emit = r.apply(ev, b[a:e], k)
	return msg, emit, true
}

// lineThread is the thread named by name, whose first bytes are tw (the
// line's first word), from the cache of short names when it is there.
// It and apply are fastLine's, split off to keep each part short: they
// cost the reader no measurable time (BenchmarkReader and its kin,
// bench_test.go).
func (r *Reader) lineThread(name []byte, tw uint64) int32 {
	n := len(name)
	if n < 8 {
		tw = low(tw, n)
	}
	if n <= 8 {
		if c := &r.threadKeys[threadSlot(tw, n)]; c.word == tw && int(c.n) == n+1 {
			return c.id
		}
	}
	return r.threadWord(name, tw)
}

// apply completes ev, whose thread and operation are set, with its
// target named by arg (key k) and updates the reader's state for it; emit
// reports whether ev is passed on, msg is a --lenient skip's reason.
func (r *Reader) apply(ev *Event, arg []byte, k nameKey) (msg string, emit bool) {
	t := ev.Thread
	if r.life[t] != lifeStarted { // a thread's first event, or one after its join
		return r.normalise(ev, arg, k)
	}
	switch ev.Op {
	case model.OpRead, model.OpWrite:
		ev.Target = r.vars.internKey(arg, k)
		return "", true
	case model.OpAcquire:
		return r.acquire(ev, arg, k)
	case model.OpRelease:
		return r.release(ev, arg, k)
	case model.OpBegin:
		return r.beginTxn(t)
	case model.OpEnd:
		return r.endTxn(t)
	}
	return r.normalise(ev, arg, k)
}

// scanThread finds the '|' ending a thread name of eight bytes or more
// (or a line end, which parse then decides).
func scanThread(b []byte, p, lim int) (bar int, ok bool) {
	for o := p + 8; o < lim; o += 8 {
		x := word(b, o)
		if m := zeroBytes(x^bars) | zeroBytes(x^nls) | zeroBytes(x^crs); m != 0 {
			return o + firstMark(m), true
		}
	}
	return 0, false
}

// scanName finds the first ')', '|' or line end at or after b[a:] and
// hashes the bytes before it (the same key as keyOf). A ')' there closes an
// argument; parse decides the other cases. e may be lim or beyond when the
// data ends first.
func scanName(b []byte, a, lim int) (e int, k nameKey) {
	h, first := uint64(hashSeed), word(b, a)
	o, x := a, first
	for {
		m := zeroBytes(x^paren) | zeroBytes(x^bars) | zeroBytes(x^nls) | zeroBytes(x^crs)
		if m != 0 {
			j := firstMark(m)
			return o + j, finishKey(h, low(x, j), o+j-a, first)
		}
		if o += 8; o >= lim {
			return o, k
		}
		h = mix(h ^ x)
		x = word(b, o)
	}
}

// scanLoc reads what follows the op, from b[i:]: nothing, or '|' and a
// location up to the line end, "\n" or "\r\n". It returns the location
// and the newline's index. A location with a '|' or a control character
// (a tab, or a lone '\r' that ends the line, included) and a line cut by
// lim are left to parse, which decides them (validLoc, nextLine).
func scanLoc(b []byte, i, lim int) (loc []byte, nl int, ok bool) {
	if i >= lim {
		return nil, 0, false
	}
	switch b[i] {
	case '\n':
		return nil, i, true
	case '\r':
		if i+1 < lim && b[i+1] == '\n' {
			return nil, i + 1, true
		}
		return nil, 0, false
	case '|':
	default:
		return nil, 0, false
	}
	for o := i + 1; o < lim; o += 8 {
		x := word(b, o)
		if m := lessThanSpace(x) | zeroBytes(x^bars) | zeroBytes(x^dels); m != 0 {
			end := o + firstMark(m)
			nl = end
			if end < lim && b[end] == '\r' {
				nl = end + 1
			}
			if nl >= lim || b[nl] != '\n' {
				return nil, 0, false
			}
			return b[i+1 : end], nl, true
		}
	}
	return nil, 0, false
}

// lessThanSpace marks the bytes of x below ' ' (control characters), as
// zeroBytes does: only the lowest mark is exact.
func lessThanSpace(x uint64) uint64 { return (x - ones*' ') & ^x & highs }
