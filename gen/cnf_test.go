package gen

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// RandomCNF draws no clause twice while there are enough different ones
// (the README's `gen np --clauses 6 --seed 3` drew "1 -2 3" twice), and
// still draws the number asked for when there are not.
func TestRandomCNFNoRepeats(t *testing.T) {
	for vars := 1; vars <= 5; vars++ {
		k := min(3, vars)
		all := int(clauseCount(vars, k))
		for _, clauses := range []int{1, all / 2, all, all + 3} {
			for seed := range uint64(5) {
				f := RandomCNF(rand.New(rand.NewPCG(seed, 0)), vars, clauses)
				require.Len(t, f.Clauses, clauses)
				seen := map[[3]int]bool{}
				for _, c := range f.Clauses {
					seen[clauseKey(c)] = true
				}
				require.Equal(t, min(clauses, all), len(seen), "vars %d, clauses %d, seed %d:\n%s", vars, clauses, seed, f)
			}
		}
	}
}

// A DIMACS header's clause count must match the clauses given; the error
// names the header's line.
func TestParseDIMACSClauseCount(t *testing.T) {
	_, err := ParseDIMACS("c a comment\np cnf 3 2\n1 2 3 0\n")
	require.EqualError(t, err, "line 2: the header declares 2 clauses, the file has 1")
	_, err = ParseDIMACS("p cnf 3 1\n1 2 3 0\n-1 0\n")
	require.EqualError(t, err, "line 1: the header declares 1 clauses, the file has 2")
	_, err = ParseDIMACS("p cnf 3 x\n")
	require.EqualError(t, err, `line 1: bad clause count "x"`)
	f, err := ParseDIMACS("p cnf 3 2\n1 2\n3 0 -1 0\n")
	require.NoError(t, err)
	require.Equal(t, [][]int{{1, 2, 3}, {-1}}, f.Clauses)
	f, err = ParseDIMACS("p cnf 0 0\n")
	require.NoError(t, err)
	require.Empty(t, f.Clauses)
}
