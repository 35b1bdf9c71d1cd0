package tracereport

import "math/bits"

// lineSet is a set of trace lines, one bit a line; once sealed, each
// member has a rank (its index among the members), so that data about the
// members sits in a slice, not a map.
type lineSet struct {
	words []uint64
	ranks []int32 // per word: the members in the words before it (seal)
	last  int64
}

// add puts line in the set (0, no line, is left out).
func (s *lineSet) add(line int64) {
	if line <= 0 {
		return
	}
	for line>>6 >= int64(len(s.words)) {
		s.words = append(s.words, 0)
	}
	s.words[line>>6] |= 1 << (line & 63)
	s.last = max(s.last, line)
}

func (s *lineSet) has(line int64) bool {
	w := line >> 6
	return line > 0 && w < int64(len(s.words)) && s.words[w]&(1<<(line&63)) != 0
}

// next is the least member after line, 0 if none (trace.LinesAt's next).
func (s *lineSet) next(after int64) int64 {
	l := after + 1
	w := int(l >> 6)
	if w >= len(s.words) {
		return 0
	}
	word := s.words[w] &^ (1<<(l&63) - 1)
	for word == 0 {
		if w++; w == len(s.words) {
			return 0
		}
		word = s.words[w]
	}
	return int64(w<<6 + bits.TrailingZeros64(word))
}

// seal numbers the members and returns how many there are.
func (s *lineSet) seal() int {
	s.ranks = make([]int32, len(s.words))
	n := 0
	for w, word := range s.words {
		s.ranks[w] = int32(n)
		n += bits.OnesCount64(word)
	}
	return n
}

// rank is a member's index among the members (after seal).
func (s *lineSet) rank(line int64) int {
	w := line >> 6
	below := s.words[w] & (1<<(line&63) - 1)
	return int(s.ranks[w]) + bits.OnesCount64(below)
}
