package dfa

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

const twoDFAs = `# words over a, b
alphabet a b
dfa Even      # an even number of a's
init e
accept e
e a o
o a e
e b e
o b o
dfa EndsB     # ends in b
init s
accept t
s a s
s b t
t a s
t b t
`

func TestParse(t *testing.T) {
	s, err := Parse(twoDFAs)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, s.Alphabet)
	require.Len(t, s.DFAs, 2)
	even, endsB := s.DFAs[0], s.DFAs[1]
	require.Equal(t, "Even", even.Name)
	require.True(t, even.Accepts([]int{0, 1, 0}))
	require.False(t, even.Accepts([]int{0, 1}))
	require.True(t, endsB.Accepts([]int{0, 1}))
	require.False(t, endsB.Accepts(nil))
	w, ok := s.CommonWord(0)
	require.True(t, ok)
	require.Equal(t, []int{1}, w) // "b"
	w, ok = s.CommonWord(3)
	require.True(t, ok)
	require.Len(t, w, 3)
	require.True(t, even.Accepts(w) && endsB.Accepts(w))
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{
		"",
		"dfa A\ninit q\n",
		"alphabet\n",
		"alphabet a a\n",
		"alphabet a\n",
		"alphabet a\nalphabet b\n",
		"alphabet a\ndfa A\n",
		"alphabet a\ninit q\n",
		"alphabet a\ndfa A\nq a q\n",
		"alphabet a\ndfa A\ninit q\nq b q\n",
		"alphabet a\ndfa A\ninit q\nq a q\nq a r\n",
		"alphabet a\ndfa A\ninit q\ninit r\n",
		"alphabet a\ndfa A B\n",
		"alphabet a\ndfa A\ninit q\nq a\n",
	} {
		_, err := Parse(bad)
		require.Error(t, err, "%q", bad)
	}
}

// TestCommonWordAgainstEnumeration checks CommonWord against the plain
// definition: enumerate every word up to a length past which a pumping
// argument says nothing new appears (m plus the product's size).
func TestCommonWordAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		s := Random(rng, 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(2))
		m := rng.IntN(4)
		bound := 1
		for _, d := range s.DFAs {
			bound *= len(d.States)
		}
		bound += m
		want := existsWord(s, m, bound)
		w, ok := s.CommonWord(m)
		require.Equal(t, want, ok, "m=%d\n%s", m, s)
		if ok {
			require.GreaterOrEqual(t, len(w), m)
			for _, d := range s.DFAs {
				require.True(t, d.Accepts(w))
			}
		}
	}
}

// existsWord decides by layers: the set of product states after exactly L
// letters, for L = 0..bound; a word of length at least m exists iff some
// layer L >= m holds a tuple of accepting states. Past bound = m plus the
// product's size the layers repeat.
func existsWord(s *Set, m, bound int) bool {
	layer := map[string][]int{key(make([]int, len(s.DFAs))): make([]int, len(s.DFAs))}
	for l := 0; l <= bound; l++ {
		next := map[string][]int{}
		for _, qs := range layer {
			if l >= m && s.allAccept(qs) {
				return true
			}
			for a := range s.Alphabet {
				if r, ok := s.step(qs, a); ok {
					next[key(r)] = r
				}
			}
		}
		layer = next
	}
	return false
}

func key(qs []int) string { return fmt.Sprint(qs) }

// TestStringRoundTrip checks that String writes what Parse reads: the same
// alphabet, names and languages.
func TestStringRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		s := Random(rng, 1+rng.IntN(3), 1+rng.IntN(4), 1+rng.IntN(3))
		back, err := Parse(s.String())
		require.NoError(t, err, s.String())
		require.Equal(t, s.Alphabet, back.Alphabet)
		require.Len(t, back.DFAs, len(s.DFAs))
		for i := range s.DFAs {
			require.Equal(t, s.DFAs[i].Name, back.DFAs[i].Name)
			for range 20 {
				w := make([]int, rng.IntN(6))
				for j := range w {
					w[j] = rng.IntN(len(s.Alphabet))
				}
				require.Equal(t, s.DFAs[i].Accepts(w), back.DFAs[i].Accepts(w))
			}
		}
	}
}

// TestCounters checks the structured instance: each automaton accepts
// some word, no word is accepted by all, and the product reaches every
// combination of counters.
func TestCounters(t *testing.T) {
	for k := 2; k <= 4; k++ {
		for n := 1; n <= 4; n++ {
			s := Counters(k, n)
			for _, d := range s.DFAs {
				_, ok := (&Set{Alphabet: s.Alphabet, DFAs: []*DFA{d}}).CommonWord(0)
				require.True(t, ok)
			}
			_, ok := s.CommonWord(0)
			require.False(t, ok)
			seen := map[string]bool{}
			layer := [][]int{make([]int, k)}
			seen[key(layer[0])] = true
			for len(layer) > 0 {
				var next [][]int
				for _, qs := range layer {
					for a := range s.Alphabet {
						r, _ := s.step(qs, a)
						if !seen[key(r)] {
							seen[key(r)] = true
							next = append(next, r)
						}
					}
				}
				layer = next
			}
			want := 1
			for range k {
				want *= n
			}
			if n%2 == 1 { // else the counters already fix the length's parity
				want *= 2
			}
			require.Len(t, seen, want, "k=%d n=%d: every combination of counters", k, n)
		}
	}
}
