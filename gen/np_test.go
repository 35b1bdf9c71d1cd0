package gen

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// TestNPAgreesWithSAT checks the reduction: on random small formulas, the
// profile engine finds a violation in NP(f) iff brute force finds a
// satisfying assignment of f. Small variable counts with many clauses
// make enough of them unsatisfiable (84 of the 360) to test both sides.
func TestNPAgreesWithSAT(t *testing.T) {
	sizes := []struct{ vars, maxClauses int }{{1, 4}, {2, 7}, {3, 11}}
	count := map[bool]int{}
	for _, sz := range sizes {
		for seed := range 120 {
			rng := rand.New(rand.NewPCG(uint64(seed), uint64(sz.vars)))
			f := RandomCNF(rng, sz.vars, 1+rng.IntN(sz.maxClauses))
			sat := f.Satisfiable()
			count[sat]++
			p := compile(t, NP(f))
			require.Equal(t, model.StraightLine, p.Class())
			require.False(t, p.HasSync())
			res := decide(t, "profile", p, engines.Options{})
			want := engines.Serializable
			if sat {
				want = engines.Violation
			}
			require.Equal(t, want, res.Verdict, "seed %d\n%s", seed, f)
		}
	}
	require.Greater(t, count[false], 60, "too few unsatisfiable formulas to test the hard direction")
	require.Greater(t, count[true], 60)
}

// TestNPSize checks the reduction is polynomial: one thread per literal
// occurrence, plus S and at most two bridges per variable, and at most
// four events a thread.
func TestNPSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 20 {
		f := RandomCNF(rng, 1+rng.IntN(6), 1+rng.IntN(12))
		p := compile(t, NP(f))
		occ := 0
		for _, c := range f.Clauses {
			occ += len(c)
		}
		require.LessOrEqual(t, len(p.Threads), 1+occ+2*f.Vars, fmt.Sprint(f))
		require.GreaterOrEqual(t, len(p.Threads), 1+occ)
	}
}

func TestParseDIMACS(t *testing.T) {
	f, err := ParseDIMACS("c a comment\np cnf 3 2\n1 -2 0\n2 3\n-1 0\n")
	require.NoError(t, err)
	require.Equal(t, CNF{Vars: 3, Clauses: [][]int{{1, -2}, {2, 3, -1}}}, f)
	g, err := ParseDIMACS(f.String())
	require.NoError(t, err)
	require.Equal(t, f, g)
	for _, bad := range []string{"", "1 2 0\n", "p cnf 2 1\n3 0\n", "p cnf 2 1\n1 x 0\n", "p cnf 2 1\n1 2\n", "p dnf 2 1\n"} {
		_, err := ParseDIMACS(bad)
		require.Error(t, err, "%q", bad)
	}
}

func TestSatisfiable(t *testing.T) {
	require.True(t, CNF{Vars: 2, Clauses: [][]int{{1, 2}, {-1}}}.Satisfiable())
	require.False(t, CNF{Vars: 1, Clauses: [][]int{{1}, {-1}}}.Satisfiable())
	require.False(t, CNF{Vars: 2, Clauses: [][]int{{1, 2}, {1, -2}, {-1, 2}, {-1, -2}}}.Satisfiable())
	require.True(t, CNF{Vars: 3}.Satisfiable())
}
