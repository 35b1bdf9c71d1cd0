package trace

import (
	"math/bits"

	"github.com/conc-dev/conc/model"
)

// quickLines decides the usual lines of a long trace without any call: a
// short thread name already cached, a started thread, an argument already
// interned, at most a short decimal location, and an event that changes
// nothing unusual (a read or write, an acq of a free lock, a rel of a lock
// held once, a begin, an end that closes one). It checks everything about
// a line before it changes anything, and stops, having changed nothing for
// it, at any other line, which fastLine or parse then decide. A Go call
// saves every live register, and in the hot loop those saves cost more
// than the scan itself, hence this leaf in front of fastLine; it loops
// itself, with the buffer and position in registers, until a line is not
// usual or evs is full, and returns how many events it stored (a begin or
// end inside a transaction gives none).
func (r *Reader) quickLines(evs []Event) int {
	if r.vars.odd || r.locks.odd { // names that no line of a trace can give
		return 0
	}
	b, p, lim, base := r.buf, r.start, r.end, r.stats.Lines+1
	i, line := 0, 0 // events stored, lines decided
lines:
	for ; i < len(evs) && lim-p >= 40; line++ { // every load stays before lim
		tw := word(b, p)
		n := firstMark(zeroBytes(tw ^ bars))
		if n == 0 || n == 8 { // no test for a newline: no cached thread name has one
			break lines
		}
		tw = low(tw, n)
		c := &r.threadKeys[threadSlot(tw, n)]
		t := c.id
		if c.word != tw || int(c.n) != n+1 || r.life[t] != lifeStarted {
			break lines
		}
		q := p + n + 1
		w := word(b, q)
		op := &opShapes[opIndex(w)]
		if w&op.mask != op.prefix {
			break lines
		}
		// The argument up to ')', hashed as keyOf does: whole words first
		// when it is long. A '|' or newline before the ')' would end up in
		// the name, which then is not in the table (Table.odd, above).
		a := q + op.size
		first := word(b, a)
		x, o, h := first, a, uint64(hashSeed)
		m := zeroBytes(x ^ paren)
		for m == 0 && op.arg && o < lim {
			h, o = mix(h^x), o+8
			x = word(b, o)
			m = zeroBytes(x ^ paren)
		}
		j := firstMark(m)
		e := o + j
		after := a
		if op.arg {
			if e == a || e >= lim-16 || b[e] != ')' { // the location, if any, stays before lim
				break lines
			}
			after = e + 1
		}
		nl, loc := after, int32(-1)
		if b[nl] != '\n' {
			// "|LOC\n" for a decimal LOC of one to five digits already in the
			// Locs table's array (RAPID's location ids).
			lw := word(b, after+1)
			k := firstMark(zeroBytes(lw ^ nls))
			if b[after] != '|' || k == 0 || k > 5 || (k > 1 && lw&0xFF == '0') {
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
			k.key = tail
		}
		target := int32(-1)
		switch op.kind {
		case model.OpRead, model.OpWrite:
			if size > 8 {
				target = r.vars.long(k, b[a:e])
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
				p = nl + 1
				continue lines
			}
		case model.OpEnd:
			d := r.depth[t]
			if d == 0 { // an end without begin: fastLine tells
				break lines
			}
			if r.depth[t] = d - 1; d != 1 {
				p = nl + 1
				continue lines
			}
		default:
			break lines
		}
		ev := &evs[i]
		ev.Thread, ev.Op, ev.Target, ev.Loc, ev.Line = t, op.kind, target, loc, base+int64(line)
		i++
		p = nl + 1
	}
	r.start = p
	r.stats.Lines, r.stats.Events = r.stats.Lines+int64(line), r.stats.Events+int64(i)
	return i
}

// decimal8 is the value of eight decimal digits, one a byte, the first in
// the lowest byte (a string's digits loaded little-endian, less '0').
func decimal8(v uint64) uint64 {
	v = (v&0x0F000F000F000F00)>>8 + (v&0x000F000F000F000F)*10
	v = (v&0x00FF000000FF0000)>>16 + (v&0x000000FF000000FF)*100
	return (v&0x0000FFFF00000000)>>32 + (v&0x000000000000FFFF)*10000
}
