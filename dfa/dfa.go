package dfa

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// DFA is a deterministic finite automaton over its Set's alphabet, partial:
// Delta[q][a] is the successor of state q on letter a, or -1 (the word is
// rejected). State 0 is the initial state.
type DFA struct {
	Name   string
	States []string // state names, for the text format; index = state
	Accept []bool
	Delta  [][]int
}

// Set is an instance of finite-state automata intersection: automata over
// one alphabet.
type Set struct {
	Alphabet []string
	DFAs     []*DFA
}

// Random draws k automata of the given numbers of states and letters: each
// transition is present with probability 3/4 and leads to a uniform state;
// each state accepts with probability 1/2.
func Random(rng *rand.Rand, k, states, letters int) *Set {
	k, states, letters = max(k, 1), max(states, 1), max(letters, 1)
	s := &Set{}
	for a := range letters {
		s.Alphabet = append(s.Alphabet, string(rune('a'+a%26))+strings.Repeat("'", a/26))
	}
	for i := range k {
		d := &DFA{Name: fmt.Sprintf("A%d", i+1)}
		for q := range states {
			d.States = append(d.States, fmt.Sprintf("q%d", q))
			d.Accept = append(d.Accept, rng.IntN(2) == 0)
			row := make([]int, letters)
			for a := range row {
				row[a] = -1
				if rng.IntN(4) > 0 {
					row[a] = rng.IntN(states)
				}
			}
			d.Delta = append(d.Delta, row)
		}
		s.DFAs = append(s.DFAs, d)
	}
	return s
}

// CommonWord answers the instance directly: a shortest word of length at
// least m that every automaton accepts, as letter indices, and whether one
// exists. It searches breadth-first the product of the automata with a
// counter saturating at m, so its cost is the product of the sizes times
// m + 1 (the exponential dependence on k that W[1]-hardness says cannot be
// avoided in general).
func (s *Set) CommonWord(m int) ([]int, bool) {
	start := productNode{qs: make([]int, len(s.DFAs)), parent: -1, letter: -1}
	queue := []productNode{start}
	seen := map[string]bool{start.key(): true}
	for i := 0; i < len(queue); i++ {
		n := queue[i]
		if n.cnt >= m && s.allAccept(n.qs) {
			return wordTo(queue, i), true
		}
		for a := range s.Alphabet {
			qs, ok := s.step(n.qs, a)
			if !ok {
				continue
			}
			next := productNode{qs: qs, cnt: min(n.cnt+1, m), parent: i, letter: a}
			if k := next.key(); !seen[k] {
				seen[k] = true
				queue = append(queue, next)
			}
		}
	}
	return nil, false
}

// productNode is a state of the product with the saturating counter, and
// how the search reached it.
type productNode struct {
	qs     []int
	cnt    int
	parent int // index in the search queue; -1 for the start
	letter int
}

func (n productNode) key() string { return fmt.Sprint(n.qs, n.cnt) }

// wordTo reads the letters along the parents from the start to queue[i].
func wordTo(queue []productNode, i int) []int {
	var w []int
	for ; queue[i].parent >= 0; i = queue[i].parent {
		w = append(w, queue[i].letter)
	}
	for l, r := 0, len(w)-1; l < r; l, r = l+1, r-1 {
		w[l], w[r] = w[r], w[l]
	}
	return w
}

// step moves every automaton on letter a; false if one has no move.
func (s *Set) step(qs []int, a int) ([]int, bool) {
	next := make([]int, len(qs))
	for i, d := range s.DFAs {
		if next[i] = d.Delta[qs[i]][a]; next[i] < 0 {
			return nil, false
		}
	}
	return next, true
}

func (s *Set) allAccept(qs []int) bool {
	for i, d := range s.DFAs {
		if !d.Accept[qs[i]] {
			return false
		}
	}
	return true
}

// Accepts reports whether d accepts the word w (letter indices).
func (d *DFA) Accepts(w []int) bool {
	q := 0
	for _, a := range w {
		if q = d.Delta[q][a]; q < 0 {
			return false
		}
	}
	return d.Accept[q]
}

// Counters is a structured instance with no common word whose product is
// as large as it gets: k automata over letters a1..ak, automaton i of 2n
// states counting its own letter ai modulo n and the length modulo 2. The
// first accepts at even length, the second at odd length, the others
// always; so each accepts some word, no word is accepted by all, and a
// product search has to visit all n^k combinations of counters to know.
func Counters(k, n int) *Set {
	k, n = max(k, 2), max(n, 1)
	s := &Set{}
	for j := range k {
		s.Alphabet = append(s.Alphabet, fmt.Sprintf("a%d", j+1))
	}
	for i := range k {
		d := &DFA{Name: fmt.Sprintf("C%d", i+1)}
		for q := range 2 * n {
			c, par := q/2, q%2
			d.States = append(d.States, fmt.Sprintf("c%d_%s", c, [2]string{"even", "odd"}[par]))
			d.Accept = append(d.Accept, i > 1 || par == i)
			row := make([]int, k)
			for j := range row {
				nc := c
				if j == i {
					nc = (c + 1) % n
				}
				row[j] = 2*nc + 1 - par
			}
			d.Delta = append(d.Delta, row)
		}
		s.DFAs = append(s.DFAs, d)
	}
	return s
}
