//go:build go1.21

package rt

import "unsafe"

// A record's line depends only on its goroutine, op, location and ref:
// the words of the record. The encoder remembers the line of each record
// it makes a line for (cache), so that a record met before costs one
// look in a table: no name is looked up, no text built. The key holds the
// strings' addresses and lengths (the runtime's strings are the
// instrumented code's literals, at fixed addresses; a string made anew
// only misses) and the ref's pointers, which keeps the objects alive as
// the names do.
type rawKey struct {
	g      uint64
	loc, s unsafe.Pointer
	lens   uint64
	obj, p unsafe.Pointer
	n      int
	kind   kind
}

// cache is a table of lines by the hash of their keys, one line a slot:
// a line that comes in replaces the one there. A trace that meets many
// objects misses, as it would anyway, and memory stays that of the
// table's lines. Each slot keeps its line's hash too, so that a miss
// does not read the line (a cache miss of the processor's, when lines
// are many).
type cache struct{ slots []cacheSlot }

type cacheSlot struct {
	hash uint64
	l    *line
}

// cacheBits sizes the cache (a variable for the tests).
var cacheBits = 14

func newCache() cache { return cache{slots: make([]cacheSlot, 1<<cacheBits)} }

// is reports whether k is the key of record r of kind kd.
func (k *rawKey) is(r *record, kd kind) bool {
	return k.g == r.g && k.loc == r.loc && k.s == r.s && k.lens == r.lens &&
		k.obj == r.obj && k.p == r.p && k.n == r.n && k.kind == kd
}

// hash hashes record r of kind k.
func hash(r *record, k kind) uint64 {
	h := r.g*0x9e3779b97f4a7c15 ^ uint64(k)<<40 ^ uint64(r.n)*0xc2b2ae3d27d4eb4f
	h ^= uint64(uintptr(r.loc)) * 0x165667b19e3779f9
	h ^= uint64(uintptr(r.s)) * 0x27d4eb2f165667c5
	h ^= uint64(uintptr(r.obj))*0x94d049bb133111eb ^ uint64(uintptr(r.p))*0xbf58476d1ce4e5b9
	return h ^ h>>29
}

// get is the line of record r of kind k, nil if none is cached.
func (c *cache) get(r *record, k kind) *line {
	h := hash(r, k)
	if s := &c.slots[h&uint64(len(c.slots)-1)]; s.hash == h && s.l != nil && s.l.key.is(r, k) {
		return s.l
	}
	return nil
}

// put caches l, the line of record r of kind k.
func (c *cache) put(r *record, k kind, l *line) {
	l.key = rawKey{r.g, r.loc, r.s, r.lens, r.obj, r.p, r.n, k}
	h := hash(r, k)
	c.slots[h&uint64(len(c.slots)-1)] = cacheSlot{h, l}
}

// lines makes the encoder's lines and keeps what they share: the tables
// of their lengths' CRC shifts (kept when the lines are forgotten), and
// the last line made at each site (a place in the code: a location, an op
// and a hint or kind) by each goroutine, at each site by any, and at each
// location: what a new line is written against (the first there is).
type lines struct {
	shifts shifts
	like   [3]map[uint64]*line // by the hash of its site and goroutine, site, location
}

// maxLike bounds lines.like's tables: a program of many goroutines makes
// many sites of the first (a goroutine at a place); when one is full it
// is emptied.
const maxLike = 1 << 16

func newLines(s shifts) lines {
	return lines{shifts: s, like: [3]map[uint64]*line{{}, {}, {}}}
}

// named is an event's op and its argument's name, for make.
type named struct {
	op  op
	arg string
}

// make is the line THREAD|OP(ARG)|LOC of each event (no parentheses when
// arg is "", no location when loc is ""), as one line of lz's.
func (ls *lines) make(g, site, at uint64, thread, loc string, evs ...named) *line {
	n := 0
	for _, ev := range evs {
		n += len(thread) + len(ev.arg) + len(loc) + 12
	}
	b := make([]byte, 0, n)
	for _, ev := range evs {
		b = append(append(append(b, thread...), '|'), opText[ev.op]...)
		if ev.arg != "" {
			b = append(append(append(b, '('), ev.arg...), ')')
		}
		if loc != "" {
			b = append(append(b, '|'), loc...)
		}
		b = append(b, '\n')
	}
	l := &line{text: b, last: -1, crc0: crc0(b), shift: ls.shifts.of(len(b))}
	for k, h := range [3]uint64{site ^ g*0x9e3779b97f4a7c15, site, at} {
		t := ls.like[k]
		if like := t[h]; l.like == nil && like != nil {
			l.like = like
			like.like = nil // no chains: the lines before are let go
		}
		if len(t) >= maxLike {
			clear(t)
		}
		t[h] = l
	}
	return l
}
