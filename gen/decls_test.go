package gen

import (
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/dfa"
)

// declaration is a vars or locks line (the generators' only comments are
// // lines, which it does not match).
var declaration = regexp.MustCompile(`(?m)^\s*(vars|locks)\s`)

// TestFamiliesDeclareWhatTheyUse: a program that declares anything must
// declare every variable and lock it uses (the declaration rule of
// docs/spec.md §2, which the compiler enforces). Every family's output, in
// every shape, declares and obeys it.
func TestFamiliesDeclareWhatTheyUse(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var outputs []string
	for _, name := range Families() {
		fam, _ := Lookup(name)
		if fam.Trace {
			continue // a trace declares nothing
		}
		for i := range 8 {
			p := Params{Threads: 2 + i%3, EventsPerThread: 1 + i, Vars: 1 + i%4, Locks: 1 + i%3, TxnLen: 1 + i%3,
				Depth: 1 + i, States: 1 + i%3, Letters: 1 + i%3, M: i % 3, Clauses: 1 + i, Twin: i%2 == 0,
				Loops: i%2 == 0, Choice: i%3 == 0, Recursion: i%4 == 0, Nested: i%2 == 1, Unary: i%3 == 1,
				Sync: i%2 == 1, Identical: i%5 == 0}
			switch name {
			case "np":
				p.Vars += 2
			case "w1", "w1-counters":
				p.Threads, p.States, p.M = 2+i%2, 1+i%2, i%2 // keeps compiling them fast
			}
			outputs = append(outputs, fam.Gen(rand.New(rand.NewPCG(rng.Uint64(), 0)), p))
		}
	}
	outputs = append(outputs, NP(CNF{}), NP(CNF{Vars: 2, Clauses: [][]int{{1, -2}, {}}}),
		W1(dfa.Counters(3, 2), 1))
	for _, src := range outputs {
		require.True(t, declaration.MatchString(src), "no declaration:\n%s", src)
		compile(t, src) // the compiler refuses a use the declarations miss
	}
}
