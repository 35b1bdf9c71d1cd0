package gen

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/conc-dev/conc/dfa"
)

func init() {
	register(Family{
		Name: "w1",
		Doc: "--threads random automata (default 2) of --states states over --letters letters " +
			"(default 2 each), or the automata of the file --dfa, as a program with locks that violates " +
			"atomicity exactly when they accept a common word of length --m or more (Theorem 6)",
		Reads: Reads{Knobs: []Knob{at("threads", 2), at("states", 1), at("letters", 1), at("m", 0)}, Seeded: true},
		Gen: func(rng *rand.Rand, p Params) string {
			s := dfa.Random(rng, max(p.Threads, 2), orDefault(p.States, 2), orDefault(p.Letters, 2))
			return W1(s, max(p.M, 0))
		},
		Bytes: func(p Params) float64 {
			return w1Bytes(max(p.Threads, 2), orDefault(p.States, 2), orDefault(p.Letters, 2), max(p.M, 0))
		},
	})
}

// W1 reduces finite-state automata intersection (k DFAs over one alphabet,
// and m: is there a common word of length at least m?) to atomicity of a
// regular program with locks, the reduction behind Theorem 6. Thread Di
// simulates automaton i; D0 leads. docs/complexity.md gives the proof;
// the protocol is:
//
//  1. Ring. Locks R0..Rk are k+1 slots of a ring; Di first takes slot
//     R(k-i). A move takes the next slot and then lets go of the current
//     one (hand over hand), so with k threads on k+1 slots only the thread
//     behind the free slot can move: once all have joined, moves go round
//     robin D0, D1, ..., D(k-1), D0, ... (lock handshakes in the manner
//     of Kahlon et al.: each thread always holds a slot, so it blocks the
//     one behind it until it moves on).
//  2. Joining before anyone moves. Locks cannot make a thread wait for one
//     that has not started, but a lock held to the end of the run can order
//     two threads that both get there: Di takes its own lock Gi after
//     taking its slot and touching (acquire; release) every other Gj, and
//     keeps Gi for good. Dj's touch of Gi must then come before Di takes
//     it, so every thread has joined the ring before any thread moves.
//  3. Letters. Each move carries a letter. Di holds its deny locks Ni_b
//     for every letter b except the one of its last move; D(i+1), on its
//     move of the same round, touches N(i)_b for its own letter b, which
//     is free only if b is Di's letter. So all threads read the same word,
//     letter by letter, and each follows its automaton on it (a missing
//     transition is a move it cannot make).
//  4. End. A thread in an accepting state may move with the end letter
//     "end" instead (the leader only after m letters), and then stops.
//  5. Cycle. D0's whole run is one transaction: it writes c0 first and
//     reads c(k-1) after its end move. Each other Di, after its end move,
//     reads c(i-1) and then, in a later transaction, writes ci. The only
//     transaction with two accesses is D0's, and the only conflict cycle
//     goes c0 -> D1 -> c1 -> ... -> D(k-1) -> c(k-1) -> D0: it needs every
//     thread to have made its end move.
//
// One shared variable would not do for k > 2, although the paper's sketch
// uses one: with a single variable every conflict cycle shrinks to one
// between two threads (docs/complexity.md), and absent threads constrain
// no one through locks. The program has k variables, 2k+1+(k-1)(|Σ|+1)
// locks, and each thread O(|A_i| (k+1) (|Σ|+1) m) states: the parameters
// (k and the number of locks) stay out of every exponent.
func W1(s *dfa.Set, m int) string {
	if len(s.DFAs) == 1 {
		s = &dfa.Set{Alphabet: s.Alphabet, DFAs: []*dfa.DFA{s.DFAs[0], s.DFAs[0]}}
	}
	k := len(s.DFAs)
	w := &w1Writer{set: s, k: k, m: m}
	top := []*node{leaf("vars " + names("c", k)), leaf("locks " + strings.Join(w.locks(), ", "))}
	for i := range k {
		top = append(top, w.thread(i))
	}
	var head strings.Builder
	fmt.Fprintf(&head, "gen w1: violates atomicity iff these %d automata accept a common word of length >= %d\n", k, m)
	for i, d := range s.DFAs {
		fmt.Fprintf(&head, "(thread D%d simulates %s)\n", i, d.Name)
	}
	head.WriteString(s.String())
	return render(strings.TrimRight(head.String(), "\n"), top)
}

// W1Bytes estimates the text of W1(s, m) before writing it.
func W1Bytes(s *dfa.Set, m int) float64 {
	states := 1
	for _, d := range s.DFAs {
		states = max(states, len(d.States))
	}
	return w1Bytes(max(len(s.DFAs), 2), states, len(s.Alphabet), m)
}

type w1Writer struct {
	set  *dfa.Set
	k, m int
}

// letters counts the alphabet and the end letter, which is index len(Alphabet).
func (w *w1Writer) letters() int { return len(w.set.Alphabet) + 1 }

var identLike = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// letterTag names letter a inside lock names: itself when it can be part of
// an identifier, else its index.
func (w *w1Writer) letterTag(a int) string {
	if a == len(w.set.Alphabet) {
		return "end"
	}
	if l := w.set.Alphabet[a]; identLike.MatchString(l) && l != "end" {
		return l
	}
	return fmt.Sprint(a)
}

func (w *w1Writer) slot(s int) string    { return fmt.Sprintf("R%d", s%(w.k+1)) }
func (w *w1Writer) deny(i, a int) string { return fmt.Sprintf("N%d_%s", i, w.letterTag(a)) }

func (w *w1Writer) locks() []string {
	var ls []string
	for s := 0; s <= w.k; s++ {
		ls = append(ls, w.slot(s))
	}
	for i := range w.k {
		ls = append(ls, fmt.Sprintf("G%d", i))
	}
	for i := 0; i < w.k-1; i++ {
		for a := range w.letters() {
			ls = append(ls, w.deny(i, a))
		}
	}
	return ls
}

func init() {
	register(Family{
		Name: "w1-counters",
		Doc: "the w1 program of --threads counting automata (default 2) of twice --states states " +
			"(default 1) that accept no common word: serializable, and a product search visits all n^k combinations of the k counters",
		Reads: Reads{Knobs: []Knob{at("threads", 2), at("states", 1)}},
		Gen: func(_ *rand.Rand, p Params) string {
			return W1(dfa.Counters(max(p.Threads, 2), max(p.States, 1)), 0)
		},
		Bytes: func(p Params) float64 {
			k := max(p.Threads, 2)
			return w1Bytes(k, 2*max(p.States, 1), k, 0)
		},
	})
}
