package global

import (
	"hash/maphash"
)

// visitedSet is the set of stored states of the global search: an
// open-addressing hash table over one byte arena of state keys. Keys are
// compared in full, so hashing never merges two states (the search stays
// exact); the arena keeps a state's cost at its key's length plus one slot,
// with no per-state allocation.
type visitedSet struct {
	seed  maphash.Seed
	arena []byte
	slots []slot // length a power of two; a slot with n == 0 is empty
	count int
}

// slot is one stored state: where its key lies in the arena, and its mark
// (its index on the DFS stack, or -1 once its exploration is finished).
type slot struct {
	hash uint64
	off  int
	n    int32
	mark int32
}

func newVisitedSet() *visitedSet {
	return &visitedSet{seed: maphash.MakeSeed(), slots: make([]slot, 256)}
}

// lookup finds key's slot; found reports whether key is stored. When it is
// not, the returned slot is where insert puts it.
func (v *visitedSet) lookup(key []byte) (slot *slot, found bool) {
	h := maphash.Bytes(v.seed, key)
	mask := len(v.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		sl := &v.slots[i]
		if sl.n == 0 {
			sl.hash = h
			return sl, false
		}
		if sl.hash == h && int(sl.n) == len(key)+1 && string(v.arena[sl.off:sl.off+len(key)]) == string(key) {
			return sl, true
		}
	}
}

// insert stores key in the empty slot lookup returned, with mark.
func (v *visitedSet) insert(sl *slot, key []byte, mark int32) {
	sl.off, sl.n, sl.mark = len(v.arena), int32(len(key)+1), mark
	v.arena = append(v.arena, key...)
	v.count++
	if 4*v.count > 3*len(v.slots) {
		v.grow()
	}
}

// grow doubles the table, rehashing by the stored hashes.
func (v *visitedSet) grow() {
	old := v.slots
	v.slots = make([]slot, 2*len(old))
	mask := len(v.slots) - 1
	for _, sl := range old {
		if sl.n == 0 {
			continue
		}
		i := int(sl.hash) & mask
		for v.slots[i].n != 0 {
			i = (i + 1) & mask
		}
		v.slots[i] = sl
	}
}

// setMark updates a stored key's mark (the slot may have moved since lookup).
func (v *visitedSet) setMark(key []byte, mark int32) {
	if sl, ok := v.lookup(key); ok {
		sl.mark = mark
	}
}
