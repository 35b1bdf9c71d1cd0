//go:build go1.21

package rt

import "unsafe"

// A record's line depends only on its goroutine, op, location and ref;
// the encoder remembers the line of each such key it has met (cache), so
// that a record it has seen before costs one lookup in an open-addressing
// table: no name is looked up, no text built. The key holds the strings
// themselves (compared by content, hashed by address: the runtime's
// strings are the instrumented code's literals, at fixed addresses) and
// the ref's pointers, which keeps the objects alive as the names do: the
// words of its record.
type rawKey struct {
	g      uint64
	loc, s unsafe.Pointer
	lens   uint64
	obj, p unsafe.Pointer
	n      int
	kind   kind
}

type cacheSlot struct {
	key rawKey
	l   *line
}

// cache is an open-addressing table of rawKey → line, linear probing,
// at most half full.
type cache struct {
	slots []cacheSlot
	used  int
}

// maxLines bounds the lines the encoder keeps, and twice it the cache's
// entries: when a trace meets more (many objects), they are all dropped
// and met again. A variable for the tests.
var maxLines = 1 << 14

func newCache() cache { return cache{slots: make([]cacheSlot, 256)} }

// is reports whether k is the key of record r of kind kd.
func (k *rawKey) is(r *record, kd kind) bool {
	return k.g == r.g && k.loc == r.loc && k.s == r.s && k.lens == r.lens &&
		k.obj == r.obj && k.p == r.p && k.n == r.n && k.kind == kd
}

// hash hashes a record's key (the record, not a rawKey built from it: the
// fields are read once, where they are).
func hash(g uint64, loc, s, obj, p unsafe.Pointer, n int, k kind) uint64 {
	h := g*0x9e3779b97f4a7c15 ^ uint64(k)<<40 ^ uint64(n)*0xc2b2ae3d27d4eb4f
	h ^= uint64(uintptr(loc)) * 0x165667b19e3779f9
	h ^= uint64(uintptr(s)) * 0x27d4eb2f165667c5
	h ^= uint64(uintptr(obj))*0x94d049bb133111eb ^ uint64(uintptr(p))*0xbf58476d1ce4e5b9
	return h ^ h>>29
}

// get is the line of record r of kind k, nil if none is cached.
func (c *cache) get(r *record, k kind) *line {
	mask := uint64(len(c.slots) - 1)
	for i := hash(r.g, r.loc, r.s, r.obj, r.p, r.n, k) & mask; ; i = (i + 1) & mask {
		s := &c.slots[i]
		if s.l == nil {
			return nil
		}
		if s.key.is(r, k) {
			return s.l
		}
	}
}

// put caches l as the line of record r of kind k.
func (c *cache) put(r *record, k kind, l *line) {
	c.insert(rawKey{r.g, r.loc, r.s, r.lens, r.obj, r.p, r.n, k}, l)
}

func (c *cache) insert(k rawKey, l *line) {
	if 2*(c.used+1) > len(c.slots) {
		c.grow()
	}
	mask := uint64(len(c.slots) - 1)
	i := hash(k.g, k.loc, k.s, k.obj, k.p, k.n, k.kind) & mask
	for c.slots[i].l != nil {
		i = (i + 1) & mask
	}
	c.slots[i] = cacheSlot{k, l}
	c.used++
}

func (c *cache) grow() {
	old := c.slots
	c.slots, c.used = make([]cacheSlot, 2*len(old)), 0
	for i := range old {
		if old[i].l != nil {
			c.insert(old[i].key, old[i].l)
		}
	}
}

// lines are the encoder's distinct lines, by text, and their pieces'.
type lines struct {
	byText map[string]*line
	segs   map[string]*seg
	shifts shifts
}

func newLines() lines {
	return lines{byText: map[string]*line{}, segs: map[string]*seg{}, shifts: shifts{}}
}

// named is an event's op and its argument's name, for intern.
type named struct {
	op  op
	arg string
}

// intern is the line THREAD|OP(ARG)|LOC of each event (no parentheses
// when arg is "", no location when loc is ""), as one line of lz's,
// made once.
func (ls *lines) intern(thread, loc string, evs ...named) *line {
	var b []byte
	var cuts []int // where each argument starts and ends
	for _, ev := range evs {
		b = append(append(append(b, thread...), '|'), opText[ev.op]...)
		if ev.arg != "" {
			b = append(b, '(')
			cuts = append(cuts, len(b), len(b)+len(ev.arg))
			b = append(append(b, ev.arg...), ')')
		}
		if loc != "" {
			b = append(append(b, '|'), loc...)
		}
		b = append(b, '\n')
	}
	if l, ok := ls.byText[string(b)]; ok {
		return l
	}
	l := &line{text: b, last: -1, crc0: crc0(b), shift: ls.shifts.of(len(b))}
	l.pieces = ls.cut(b, cuts)
	ls.byText[string(b)] = l
	return l
}

// cut splits a line into its pieces: what comes before and after each
// argument (thread, op, location), and the argument's parts, which "#"
// and "[" start (the numbers that differ between objects). cuts are
// where the arguments start and end.
func (ls *lines) cut(b []byte, cuts []int) []piece {
	var ps []piece
	start := 0
	add := func(end int) {
		if end > start {
			t := string(b[start:end])
			s := ls.segs[t]
			if s == nil {
				s = &seg{}
				ls.segs[t] = s
			}
			ps = append(ps, piece{s, int32(start), int32(end - start)})
			start = end
		}
	}
	for k := 0; k < len(cuts); k += 2 {
		add(cuts[k])
		for i := cuts[k]; i < cuts[k+1]; i++ {
			if b[i] == '#' || b[i] == '[' {
				add(i)
			}
		}
		add(cuts[k+1])
	}
	add(len(b))
	return ps
}
