package trace

import (
	"encoding/binary"
	"math/bits"
	"strings"
)

// The table's own open-addressing hash index replaces a map plus a
// direct-mapped cache in front of it: with 10^4 variables the cache missed
// often and the map's probing then cost a fifth of the reader's time. The
// reader is bound by memory latency, so a slot holds a short name (up to
// eight bytes: most trace names, "x1234", "@17[25]", "T3") itself, and a
// known short name is found with one cache miss, not three (slot, string
// header, bytes). The index stays at most half full, so a name is usually
// at its first slot.
//
// A name of up to seven bytes has its length in its key's top byte (where
// the name has none), so that its key alone tells it from every other name
// of up to seven bytes. A longer name has the same key only if its eighth
// byte is that length, 1 to 7, and the bytes between are NULs: quickScan
// compares only the key, so a table with such a name (eighth byte 1 to 7,
// a control character no trace uses) is odd, as is one with a line end or
// a '|' (only Intern can add those).
type hashSlot struct {
	key  uint64 // a name's first eight bytes, little-endian (under eight: and its length in the top byte)
	meta uint32 // the hash's upper bits, and the name's length (9: longer)
	id   int32  // id+1; 0 marks an empty slot
}

// nameKey is a name's hash, its slot meta and, for a short name, its key.
type nameKey struct {
	hash, key uint64
	meta      uint32
}

// keyOf hashes the name eight bytes at a time (names are short: object
// ids, array cells, fields); a short name's one word is its key. The
// reader's scanName, fastLine and quickLines compute the same key while
// they look for the ')'.
func keyOf(b []byte) nameKey {
	n := len(b)
	h, first := uint64(hashSeed), loadShort(b)
	for len(b) >= 8 {
		h = mix(h ^ binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	return finishKey(h, loadShort(b), n, first)
}

const (
	hashSeed = 0x9E3779B97F4A7C15
	mixXor   = 0xA0761D6478BD642F
	mixMul   = 0xE7037ED1A0B428DB
)

// finishKey completes a key: h has mixed in the name's whole words, tail
// holds its last n%8 bytes, and first its first eight bytes (any bytes
// past a short name are masked here).
func finishKey(h, tail uint64, n int, first uint64) nameKey {
	h = mix(h ^ tail ^ uint64(n)<<56)
	k := nameKey{hash: h, meta: uint32(h>>32)&^0xFF | uint32(min(n, 9))}
	k.key = first // a long name's first eight bytes narrow its full compare
	if n < 8 {
		k.key = low(first, n) | uint64(n)<<56
	}
	return k
}

// loadShort packs the (at most eight) bytes of b into a word, little-endian.
// A name sliced out of the reader's buffer usually has eight bytes of
// capacity, and one load and a mask then replace a loop over its bytes.
func loadShort(b []byte) uint64 {
	n := len(b)
	if cap(b) >= 8 {
		w := binary.LittleEndian.Uint64(b[:8])
		if n == 8 {
			return w
		}
		return w & (1<<(8*uint(n)) - 1)
	}
	var w uint64
	for i, c := range b {
		w |= uint64(c) << (8 * i)
	}
	return w
}

// mix folds the 128-bit product of h^mixXor and mixMul (wyhash's mixing
// step); quickLines and fastLine inline it by hand in finishKey's place.
func mix(h uint64) uint64 {
	hi, lo := bits.Mul64(h^mixXor, mixMul)
	return hi ^ lo
}

// find returns the id of b, or -1; k is keyOf(b).
func (t *Table) find(b []byte, k nameKey) int32 {
	if len(b) <= 8 {
		return t.short(k)
	}
	return t.long(k, b)
}

// add appends the new name s with key k and indexes it.
func (t *Table) add(s string, k nameKey) int32 {
	id := int32(len(t.names))
	t.names = append(t.names, s)
	t.odd = t.odd || strings.ContainsAny(s, "|\n\r") || len(s) >= 8 && s[7] >= 1 && s[7] <= 7
	if 2*len(t.names) > len(t.index)-1 {
		t.rehash(max(64, 2*len(t.names)))
		return id
	}
	t.place(k, id)
	return id
}

// mask is the index's number of slots less one: a power of two of them,
// and one more, always empty, after them, so that quickScan can read a
// name's first two slots as one (the last slot's next is slot 0, which it
// leaves to its loop).
func (t *Table) mask() uint64 { return uint64(len(t.index) - 2) }

func (t *Table) place(k nameKey, id int32) {
	mask := t.mask()
	i := k.hash & mask
	for t.index[i].id != 0 {
		i = (i + 1) & mask
	}
	t.index[i] = hashSlot{key: k.key, meta: k.meta, id: id + 1}
}

// rehash rebuilds the index with n slots (a power of two) for all names.
func (t *Table) rehash(n int) {
	t.index = make([]hashSlot, 1<<bits.Len(uint(n-1))+1)
	for id, s := range t.names {
		t.place(keyOf([]byte(s)), int32(id))
	}
}

// short finds a short name (at most eight bytes) by its key alone, or -1:
// the reader's quick path, which must not call.
func (t *Table) short(k nameKey) int32 {
	mask := t.mask()
	for i := k.hash & mask; i < uint64(len(t.index)); i = (i + 1) & mask {
		s := &t.index[i]
		if s.meta == k.meta && s.key == k.key {
			return s.id - 1
		}
		if s.id == 0 {
			return -1
		}
	}
	return -1
}

// long finds a name of more than eight bytes by its key and bytes, or -1.
func (t *Table) long(k nameKey, name []byte) int32 {
	mask := t.mask()
	for i := k.hash & mask; i < uint64(len(t.index)); i = (i + 1) & mask {
		s := &t.index[i]
		if s.id == 0 {
			return -1
		}
		if s.meta == k.meta && s.key == k.key && t.names[s.id-1] == string(name) {
			return s.id - 1
		}
	}
	return -1
}
