package gen

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/dfa"
)

// names of a .conc text: the variables and locks its vars and locks lines
// declare, and those its statements and automaton edges use.
type textNames struct {
	declared, used map[string]map[string]bool // "vars" or "locks" -> names
	declares       bool
}

// scanNames reads the names of a generated program line by line (gen writes
// one statement or edge a line; an edge's event follows its colon).
func scanNames(src string) textNames {
	n := textNames{
		declared: map[string]map[string]bool{"vars": {}, "locks": {}},
		used:     map[string]map[string]bool{"vars": {}, "locks": {}},
	}
	kindOf := map[string]string{"read": "vars", "write": "vars", "sync": "locks", "acquire": "locks", "release": "locks"}
	for _, line := range strings.Split(stripComments(src), "\n") {
		line = strings.TrimSpace(line)
		if kw, list, ok := strings.Cut(line, " "); ok && (kw == "vars" || kw == "locks") {
			n.declares = true
			for _, name := range strings.Split(list, ",") {
				n.declared[kw][strings.TrimSpace(name)] = true
			}
			continue
		}
		if _, ev, ok := strings.Cut(line, ":"); ok && strings.Contains(line, "->") {
			line = strings.TrimSpace(ev)
		}
		f := strings.Fields(strings.TrimSuffix(line, "{"))
		if len(f) == 2 && kindOf[f[0]] != "" {
			n.used[kindOf[f[0]]][f[1]] = true
		}
	}
	return n
}

// TestFamiliesDeclareWhatTheyUse: a program that declares anything must
// declare every variable and lock it uses (the declaration rule of
// docs/spec.md §2). Every family's output, in every shape, declares and
// obeys it.
func TestFamiliesDeclareWhatTheyUse(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var outputs []string
	for _, name := range Families() {
		fam, _ := Lookup(name)
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
		n := scanNames(src)
		require.True(t, n.declares, "no declaration:\n%s", src)
		for _, kind := range []string{"vars", "locks"} {
			for name := range n.used[kind] {
				require.True(t, n.declared[kind][name], "%s %s is used but not declared:\n%s", kind, name, src)
			}
		}
		compile(t, src)
	}
}

// TestScanNames checks the scanner on a program whose every kind of use is
// undeclared once, so that the test above cannot pass by seeing nothing.
func TestScanNames(t *testing.T) {
	n := scanNames("// read q\nvars x\nthread A {\n  sync m {\n    read y\n  }\n  write x\n}\n" +
		"thread B automaton {\n  init s\n  s -> t : acquire l\n  t -> s : release l\n}\n")
	require.True(t, n.declares)
	require.Equal(t, map[string]bool{"x": true}, n.declared["vars"])
	require.Equal(t, map[string]bool{"x": true, "y": true}, n.used["vars"])
	require.Equal(t, map[string]bool{"m": true, "l": true}, n.used["locks"])
}
