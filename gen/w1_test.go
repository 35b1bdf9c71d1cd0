package gen

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/dfa"
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
)

// TestW1AgreesWithIntersection checks the reduction on many small random
// DFA sets: the global engine (Theorem 4, exact for regular programs with
// locks) finds a violation in W1(s, m) iff s's automata accept a common
// word of length at least m, by the direct product check. 570 DFA sets with
// CONC_LONG=1, a quarter of each size's seeds in the quick suite.
func TestW1AgreesWithIntersection(t *testing.T) {
	type size struct{ k, states, letters, maxM, seeds int }
	sizes := []size{{1, 3, 2, 3, 40}, {2, 2, 2, 3, 150}, {2, 3, 2, 4, 150}, {2, 3, 3, 2, 60}, {3, 2, 2, 2, 80}, {3, 3, 2, 2, 60}, {4, 2, 2, 2, 30}}
	count := map[bool]int{}
	total := 0
	for _, sz := range sizes {
		n := testflag.N(sz.seeds/4, sz.seeds)
		total += n
		t.Run(fmt.Sprintf("k=%d/states=%d/letters=%d", sz.k, sz.states, sz.letters), func(t *testing.T) {
			for seed := range n {
				rng := rand.New(rand.NewPCG(uint64(seed), uint64(100*sz.k+10*sz.states+sz.letters)))
				s := dfa.Random(rng, sz.k, sz.states, sz.letters)
				m := rng.IntN(sz.maxM + 1)
				_, want := s.CommonWord(m)
				count[want]++
				p := compile(t, W1(s, m))
				require.NotEqual(t, model.Recursive, p.Class())
				res := decide(t, "global", p, engines.Options{})
				require.NotEqual(t, engines.Unknown, res.Verdict, res.Reason)
				require.Equal(t, want, res.Verdict == engines.Violation, "seed %d, m=%d\n%s", seed, m, s)
			}
		})
	}
	require.Greater(t, count[true], total*50/570) // 50 of 570
	require.Greater(t, count[false], total*50/570)
}

// TestW1NeedsEveryThread checks that the cycle needs every thread: with any
// thread removed the program is serializable, even when the automata have
// a common word.
func TestW1NeedsEveryThread(t *testing.T) {
	s, err := dfa.Parse("alphabet a b\ndfa A\ninit p\naccept p\np a p\np b p\ndfa B\ninit q\naccept q\nq a q\ndfa C\ninit r\naccept r\nr a r\nr b r\n")
	require.NoError(t, err)
	p := compile(t, W1(s, 2))
	require.Equal(t, engines.Violation, decide(t, "global", p, engines.Options{}).Verdict)
	for i := range p.Threads {
		require.Equal(t, engines.Serializable, decide(t, "global", without(p, i), engines.Options{}).Verdict, "without D%d", i)
	}
}

// TestOneVariableTwoThreads supports the remark in W1's documentation (and
// docs/complexity.md): with a single shared variable, a program with locks
// violates atomicity iff one of its two-thread projections does, so a
// single variable cannot make a third thread's presence matter. Checked
// by the enumerating engine on random straight-line programs with locks.
func TestOneVariableTwoThreads(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	viol := 0
	for seed := range 300 {
		p := compile(t, Random(rng, Params{Threads: 3, EventsPerThread: 3, Vars: 1, Locks: 2, TxnLen: 3, Sync: true, Unary: true}))
		full := decide(t, "brute", p, engines.Options{MaxDepth: 64}).Verdict
		require.NotEqual(t, engines.Unknown, full)
		pair := false
		for i := range p.Threads {
			pair = pair || decide(t, "brute", without(p, i), engines.Options{MaxDepth: 64}).Verdict == engines.Violation
		}
		require.Equal(t, full == engines.Violation, pair, "seed %d", seed)
		if pair {
			viol++
		}
	}
	require.Greater(t, viol, 30)
}

// TestW1Counters checks the bench's hard case: no common word, so the
// program is serializable, though each automaton alone accepts a word.
func TestW1Counters(t *testing.T) {
	for k := 2; k <= 3; k++ {
		for n := 1; n <= 2; n++ {
			p := compile(t, W1(dfa.Counters(k, n), 0))
			require.Equal(t, engines.Serializable, decide(t, "global", p, engines.Options{}).Verdict, "k=%d n=%d", k, n)
		}
	}
}
