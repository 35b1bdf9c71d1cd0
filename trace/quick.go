package trace

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/conc-dev/conc/model"
)

// quickLines takes a line only when it starts (quickScan: ends, in a
// 64-byte block that ends) quickWindow bytes or more before the end of the
// data and its argument has at most quickName bytes: every load it makes then stays inside the
// data, and it needs no bounds check (in the hot loop those checks, and
// the registers they keep live, cost more than the scan).
const (
	quickWindow = 96
	quickName   = 64
)

// quickLines decides the usual lines of a long trace without any call: a
// short thread name already cached, a started thread, an argument already
// interned, at most a short decimal location, and an event that changes
// nothing unusual (a read or write, an acq of a free lock, a rel of a lock
// held once, a begin, an end that closes one). It checks everything about
// a line before it changes anything, and stops, having changed nothing for
// it, at any other line, which fastLine or parse then decide. It loops
// until a line is not usual or evs is full, and returns how many events it
// stored (a begin or end inside a transaction gives none).
//
// These lines are nearly all of a trace, and the reader's speed is this
// loop's. On amd64 it is written in assembly (quick_amd64.s): the Go
// compiler keeps spilling the loop's dozen live values, and spends about
// 230 instructions a line where the assembly spends about 110. quickGo is
// the same loop in Go, for the other architectures, and the tests hold the
// two, and the byte-wise parser, to the same answers.
func (r *Reader) quickLines(evs []Event) int {
	// An odd table has a name that quickLines's compares could mistake
	// (Table.odd).
	if len(evs) == 0 || r.vars.odd || r.locks.odd || r.end-r.start < quickWindow {
		return 0
	}
	if quickAsm && !r.portable {
		return r.quickNative(evs)
	}
	return r.quickGo(evs)
}

// quickGo is quickLines in Go. It calls nothing: a Go call saves every
// live register, which in this loop costs more than the scan.
func (r *Reader) quickGo(evs []Event) int {
	b := unsafe.Pointer(unsafe.SliceData(r.buf))
	p, lineNo := r.start, r.stats.Lines
	out := unsafe.Pointer(unsafe.SliceData(evs))
	ev := out
	last := unsafe.Add(out, (len(evs)-1)*int(unsafe.Sizeof(Event{})))
lines:
	for uintptr(ev) <= uintptr(last) && p < r.end-quickWindow {
		tw := load(b, p)
		n := firstMark(zeroBytes(tw ^ bars))
		// The cache holds a short name packed with its length, and the
		// live mark when the thread has started and is not joined.
		c := &r.threadKeys[threadSlot(low(tw, n), n)]
		if c.live != low(tw, n)|uint64(n)<<56|liveMark {
			break lines
		}
		t := c.id
		q := p + n + 1
		w := load(b, q)
		op := &opShapes[opIndex(w)]
		if w&op.mask != op.prefix {
			break lines
		}
		// The argument up to ')', hashed as keyOf does: whole words first
		// when it is long. A '|' or newline before the ')' would end up in
		// the name, which then is not in the table (Table.odd, above).
		a := q + op.size
		first := load(b, a)
		x, o, h := first, a, uint64(hashSeed)
		m := zeroBytes(x ^ paren)
		for m == 0 && op.arg && o < a+quickName-8 {
			h, o = mix(h^x), o+8
			x = load(b, o)
			m = zeroBytes(x ^ paren)
		}
		j := firstMark(m)
		e := o + j
		after := a
		if op.arg {
			if e == a || m == 0 {
				break lines
			}
			after = e + 1
		}
		nl, loc := after, int32(-1)
		if at(b, nl) != '\n' {
			// "|LOC\n" for a decimal LOC of one to five digits already in the
			// Locs table's array (RAPID's location ids).
			lw := load(b, after+1)
			k := firstMark(zeroBytes(lw ^ nls))
			if at(b, after) != '|' || k == 0 || k > 5 || (k > 1 && lw&0xFF == '0') {
				break lines
			}
			// Pad the digits with '0' to eight bytes; all eight must be digits.
			d := low(lw, k) | (ones*'0')&^low(^uint64(0), k)
			if d&(ones*0xF0) != ones*'0' || (d+ones*6)&(ones*0xF0) != ones*'0' {
				break lines
			}
			v := decimal8((d - ones*'0') << (8 * uint(8-k)))
			if v >= uint64(len(r.locs.small)) || r.locs.small[v] == 0 {
				break lines
			}
			nl, loc = after+1+k, r.locs.small[v]-1
		}
		// finishKey, by hand: the call inlines too, but costs 3.5 % more
		// instructions a line (cachegrind), having to redo what is known
		// here (the tail is already masked, a short name's key is it).
		tail, size := low(x, j), e-a
		hi, lo := bits.Mul64(h^tail^uint64(size)<<56^mixXor, mixMul)
		k := nameKey{hash: hi ^ lo, key: first, meta: uint32((hi^lo)>>32)&^0xFF | uint32(min(size, 9))}
		if size < 8 {
			k.key = tail | uint64(size)<<56
		}
		target := int32(-1)
		switch op.kind {
		case model.OpRead, model.OpWrite:
			if size > 8 {
				target = r.vars.long(k, unsafe.Slice((*byte)(unsafe.Add(b, a)), size))
			} else {
				target = r.vars.short(k)
			}
			if target < 0 {
				break lines
			}
		case model.OpAcquire:
			// A lock without an owner slot (unknown, or interned through
			// Locks().Intern and not seen in the trace yet) is fastLine's.
			if target = r.locks.short(k); size > 8 || uint(target) >= uint(len(r.owner)) || r.owner[target] != -1 {
				break lines
			}
			r.owner[target], r.count[target] = t, 1
		case model.OpRelease:
			if target = r.locks.short(k); size > 8 || uint(target) >= uint(len(r.owner)) || r.owner[target] != t || r.count[target] != 1 {
				break lines
			}
			r.owner[target], r.count[target] = -1, 0
		case model.OpBegin:
			// Only a thread's outermost begin and end are events (RAPID's
			// rule); inner ones change the depth and are done.
			d := r.depth[t]
			if r.depth[t] = d + 1; d != 0 {
				r.stats.Nested++
				p, lineNo = nl+1, lineNo+1
				continue lines
			}
		case model.OpEnd:
			d := r.depth[t]
			if d == 0 { // an end without begin: fastLine tells
				break lines
			}
			if r.depth[t] = d - 1; d != 1 {
				p, lineNo = nl+1, lineNo+1
				continue lines
			}
		default:
			break lines
		}
		*(*Event)(ev) = Event{Thread: t, Op: op.kind, Target: target, Loc: loc, Line: lineNo + 1}
		ev = unsafe.Add(ev, unsafe.Sizeof(Event{}))
		p, lineNo = nl+1, lineNo+1
	}
	i := int((uintptr(ev) - uintptr(out)) / unsafe.Sizeof(Event{}))
	r.start = p
	r.stats.Lines, r.stats.Events = lineNo, r.stats.Events+int64(i)
	return i
}

// load is word without the bounds checks, for quickLines, which keeps
// its loads inside the data by quickWindow.
func load(b unsafe.Pointer, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(b, i))[:])
}

// at is the byte at b[i], without the bounds check (as load).
func at(b unsafe.Pointer, i int) byte { return *(*byte)(unsafe.Add(b, i)) }

// decimal8 is the value of eight decimal digits, one a byte, the first in
// the lowest byte (a string's digits loaded little-endian, less '0').
func decimal8(v uint64) uint64 {
	v = (v&0x0F000F000F000F00)>>8 + (v&0x000F000F000F000F)*10
	v = (v&0x00FF000000FF0000)>>16 + (v&0x000000FF000000FF)*100
	return (v&0x0000FFFF00000000)>>32 + (v&0x000000000000FFFF)*10000
}
