package profile

import (
	"encoding/binary"
	"math/bits"

	"github.com/conc-dev/conc/profiles"
)

// Relevance makes the chain search's memo key small. Whether a chain can be
// completed from letter cur depends only on which classes could take part in
// some completion from cur, "threads may repeat" (the relevant classes of
// cur); whether the others are used does not matter. So the memo key is cur
// with the use counts of cur's relevant classes only. On the reduction of
// Theorem 2 (gen's np family) this is the difference between remembering
// every combination of clause threads used so far and remembering only those
// of the clauses still ahead.
//
// live is the set of letters a chain may leave a thread by and still be
// completed (threads may repeat): every letter from which some class step
// reaches a target or another live letter. A letter outside live is a dead
// end. A target with no step of its own is left out: the search's closing
// test finds a chain's exit at a target before it filters on live.

// relevance is computed per search (class of i, letter a), from s.next,
// s.avail and s.tgt.
type relevance struct {
	live    profiles.Set
	classes [][]uint64 // per letter: bit set of its relevant classes
}

// computeRelevance finds live (a fixpoint, O(L²·classes) per round) and each
// live letter's relevant classes: those with a step into live from a letter
// reachable from it through live letters. It is false when a budget ended
// the search (stop is set): a round of the fixpoint is O(L·classes) and the
// relevance of one letter O(L·classes) too, so each letter is a tick.
func (s *chainSearch) computeRelevance(L int) bool {
	w := len(s.tgt)
	co := profiles.NewSet(w) // live (the targets are only where chains end)
	live := s.tgt.Clone()
	for grew := true; grew; {
		grew = false
		for x := profiles.Letter(0); int(x) < L; x++ {
			if co.Has(x) {
				continue
			}
			if !s.tick() {
				return false
			}
			for c, nx := range s.next {
				if s.avail[c] > 0 && nx[x].Intersects(live) {
					co.Add(x)
					live.Add(x)
					grew = true
					break
				}
			}
		}
	}
	cw := (len(s.next) + 63) / 64
	useful := make([][]uint64, L)
	for _, x := range co.Letters() {
		if !s.tick() {
			return false
		}
		useful[x] = make([]uint64, cw)
		for c, nx := range s.next {
			if s.avail[c] > 0 && nx[x].Intersects(live) {
				useful[x][c/64] |= 1 << (c % 64)
			}
		}
	}
	s.rel = relevance{live: co, classes: make([][]uint64, L)}
	for _, l := range co.Letters() {
		if s.rel.classes[l] = s.reachUnion(l, co, useful, cw); s.rel.classes[l] == nil {
			return false
		}
	}
	return true
}

// reachUnion ORs useful[x] over the letters x reachable from l (including l)
// by class steps that stay in co; nil when a budget ended the search.
func (s *chainSearch) reachUnion(l profiles.Letter, co profiles.Set, useful [][]uint64, cw int) []uint64 {
	out := make([]uint64, cw)
	seen := profiles.NewSet(len(co))
	seen.Add(l)
	stack := []profiles.Letter{l}
	for len(stack) > 0 {
		if !s.tick() {
			return nil
		}
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i, u := range useful[x] {
			out[i] |= u
		}
		for c, nx := range s.next {
			if s.avail[c] == 0 || !nx[x].Intersects(co) {
				continue
			}
			for _, y := range nx[x].Letters() {
				if co.Has(y) && !seen.Has(y) {
					seen.Add(y)
					stack = append(stack, y)
				}
			}
		}
	}
	return out
}

// relevant reports whether class c may take part in a completion from l.
func (s *chainSearch) relevant(l profiles.Letter, c int) bool {
	rc := s.rel.classes[l]
	return rc != nil && rc[c/64]&(1<<(c%64)) != 0
}

// appendKey encodes the memo key of state (e, s.used): e, then the (class,
// count) pairs of e's relevant classes in use.
func (s *chainSearch) appendKey(key []byte, e profiles.Letter) []byte {
	key = binary.AppendUvarint(key, uint64(e))
	for i, word := range s.rel.classes[e] {
		for word != 0 {
			c := 64*i + bits.TrailingZeros64(word)
			word &= word - 1
			if s.used[c] > 0 {
				key = binary.AppendUvarint(key, uint64(c))
				key = binary.AppendUvarint(key, uint64(s.used[c]))
			}
		}
	}
	return key
}
