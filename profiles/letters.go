package profiles

import (
	"math/bits"

	"github.com/conc-dev/conc/model"
)

// Letter is an access as the paper's alphabet A_T has it, without the
// thread: variable v read is letter 2v, written is 2v+1. A program with v
// variables has 2v letters.
type Letter int32

// LetterOf is the letter of an access event, or -1 for any other event.
func LetterOf(e model.Event) Letter {
	switch e.Op {
	case model.OpRead:
		return Letter(2 * e.Target)
	case model.OpWrite:
		return Letter(2*e.Target + 1)
	}
	return -1
}

// Var is the letter's variable (an index into Program.Vars).
func (l Letter) Var() int32 { return int32(l) / 2 }

// Write reports whether the letter is a write.
func (l Letter) Write() bool { return l&1 == 1 }

// Op is the letter's event kind.
func (l Letter) Op() model.Op {
	if l.Write() {
		return model.OpWrite
	}
	return model.OpRead
}

// Event is the letter as an event (no position).
func (l Letter) Event() model.Event { return model.Event{Op: l.Op(), Target: l.Var()} }

// Conflicts reports the paper's D between letters of different threads: the
// same variable, and at least one of them a write.
func (l Letter) Conflicts(m Letter) bool { return l.Var() == m.Var() && (l.Write() || m.Write()) }

// Set is a set of letters as a bit vector. All sets of one program have the
// same width, Words(v) words; with at most 32 variables that is a single
// uint64. (A flat []uint64 rather than bitset.BitSet: extraction keeps two
// sets per automaton state in one allocation.)
type Set []uint64

// Words is the width of a Set over the letters of nvars variables.
func Words(nvars int) int { return (2*nvars + 63) / 64 }

// NewSet returns an empty set of width w.
func NewSet(w int) Set { return make(Set, w) }

// Has reports whether l is in s.
func (s Set) Has(l Letter) bool { return s[l>>6]&(1<<(uint(l)&63)) != 0 }

// Add puts l in s.
func (s Set) Add(l Letter) { s[l>>6] |= 1 << (uint(l) & 63) }

// Or adds t to s and reports whether s grew.
func (s Set) Or(t Set) bool {
	grew := false
	for i, x := range t {
		if s[i]|x != s[i] {
			s[i] |= x
			grew = true
		}
	}
	return grew
}

// Intersects reports whether s and t share a letter.
func (s Set) Intersects(t Set) bool {
	for i, x := range t {
		if s[i]&x != 0 {
			return true
		}
	}
	return false
}

// Empty reports whether s has no letter.
func (s Set) Empty() bool {
	for _, x := range s {
		if x != 0 {
			return false
		}
	}
	return true
}

// Equal reports whether s and t hold the same letters.
func (s Set) Equal(t Set) bool {
	for i, x := range t {
		if s[i] != x {
			return false
		}
	}
	return true
}

// Clone returns a copy of s.
func (s Set) Clone() Set { return append(Set(nil), s...) }

// Len is the number of letters in s.
func (s Set) Len() int {
	n := 0
	for _, x := range s {
		n += bits.OnesCount64(x)
	}
	return n
}

// Letters lists s in increasing order.
func (s Set) Letters() []Letter {
	var ls []Letter
	for i, x := range s {
		for x != 0 {
			b := bits.TrailingZeros64(x)
			ls = append(ls, Letter(64*i+b))
			x &= x - 1
		}
	}
	return ls
}

// Conflicting is the set of letters that conflict with some letter of s. A
// word holds whole variables (letters 2v and 2v+1), so this is word-wise:
// a read conflicts with the write, a write with both.
func (s Set) Conflicting() Set {
	const reads = 0x5555555555555555
	c := make(Set, len(s))
	for i, x := range s {
		w := x &^ reads
		c[i] = (x&reads)<<1 | w | w>>1
	}
	return c
}
