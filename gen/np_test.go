package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// TestNPAgreesWithSAT checks the reduction: on random small formulas, the
// profile engine finds a violation in NP(f) iff brute force finds a
// satisfying assignment of f. Small variable counts with many clauses
// make enough of them unsatisfiable (203 of the 360) to test both sides.
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

// formulaOf reads back the formula an np program states in its header
// comment.
func formulaOf(t *testing.T, src string) CNF {
	t.Helper()
	var dimacs strings.Builder
	for _, l := range strings.Split(src, "\n")[1:] {
		if !strings.HasPrefix(l, "// ") {
			break
		}
		dimacs.WriteString(strings.TrimPrefix(l, "// ") + "\n")
	}
	f, err := ParseDIMACS(dimacs.String())
	require.NoError(t, err, src)
	return f
}

// TestNPFamilyIs3CNF draws the np family as conc gen does: by default and
// with the clause count alone, the formula is a real 3-CNF (at least three
// variables, the clauses asked for, three distinct variables each), and the
// program's verdict is the formula's satisfiability.
func TestNPFamilyIs3CNF(t *testing.T) {
	fam, err := Lookup("np")
	require.NoError(t, err)
	count := map[bool]int{}
	for seed := range 40 {
		p := Params{Clauses: 1 + seed%16}
		if seed%5 == 0 {
			p = Params{}
		}
		src := fam.Gen(rand.New(rand.NewPCG(uint64(seed), 0)), p)
		f := formulaOf(t, src)
		require.GreaterOrEqual(t, f.Vars, 3, src)
		if p.Clauses > 0 {
			require.Len(t, f.Clauses, p.Clauses)
		}
		for _, c := range f.Clauses {
			require.Len(t, c, 3, "clause %v", c)
			abs := map[int]bool{}
			for _, l := range c {
				abs[max(l, -l)] = true
			}
			require.Len(t, abs, 3, "clause %v repeats a variable", c)
		}
		sat := f.Satisfiable()
		count[sat]++
		want := engines.Serializable
		if sat {
			want = engines.Violation
		}
		require.Equal(t, want, decide(t, "profile", compile(t, src), engines.Options{}).Verdict, "seed %d\n%s", seed, f)
	}
	require.Positive(t, count[false], "no unsatisfiable formula among the clause counts up to 16")
	require.Positive(t, count[true])
}

// TestNPDegenerateFormulas: the empty formula and a formula without
// clauses are satisfied (a violation); an empty clause is not.
func TestNPDegenerateFormulas(t *testing.T) {
	for _, tc := range []struct {
		f    CNF
		want engines.Verdict
	}{
		{CNF{}, engines.Violation},
		{CNF{Vars: 2}, engines.Violation},
		{CNF{Clauses: [][]int{{}}}, engines.Serializable},
		{CNF{Vars: 1, Clauses: [][]int{{1}, {}}}, engines.Serializable},
	} {
		p := compile(t, NP(tc.f))
		require.Equal(t, tc.f.Satisfiable(), tc.want == engines.Violation, "%v", tc.f)
		for _, e := range []string{"profile", "brute"} {
			require.Equal(t, tc.want, decide(t, e, p, engines.Options{}).Verdict, "%s on\n%s", e, NP(tc.f))
		}
	}
}

// TestRandomCNFDistinct: every clause has min(3, vars) distinct variables,
// for small and huge variable counts alike.
func TestRandomCNFDistinct(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, vars := range []int{1, 2, 3, 4, 7, 1_000_000} {
		f := RandomCNF(rng, vars, 200)
		require.Len(t, f.Clauses, 200)
		for _, c := range f.Clauses {
			seen := map[int]bool{}
			for _, l := range c {
				v := max(l, -l)
				require.True(t, v >= 1 && v <= vars, "%v", c)
				seen[v] = true
			}
			require.Len(t, seen, min(3, vars), "%v", c)
		}
	}
}
