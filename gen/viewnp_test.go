package gen

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/monitor/view"
	"github.com/conc-dev/conc/trace"
)

// dpll decides f by unit propagation and splitting: the small SAT solver
// the view-np reduction is checked against (assign[v]: 0 unset, 1 true,
// -1 false).
func dpll(clauses [][]int, assign []int) bool {
	for {
		unit, open := 0, false
		for _, c := range clauses {
			sat, free, last := false, 0, 0
			for _, l := range c {
				switch v := assign[abs(l)] * sign(l); v {
				case 1:
					sat = true
				case 0:
					free++
					last = l
				}
			}
			switch {
			case sat:
			case free == 0:
				return false
			case free == 1:
				unit = last
			default:
				open = true
			}
			if unit != 0 {
				break
			}
		}
		if unit == 0 {
			if !open {
				return true
			}
			break
		}
		assign[abs(unit)] = sign(unit)
	}
	v := 1
	for assign[v] != 0 {
		v++
	}
	for _, value := range []int{1, -1} {
		try := append([]int(nil), assign...)
		try[v] = value
		if dpll(clauses, try) {
			return true
		}
	}
	return false
}

func sign(l int) int {
	if l < 0 {
		return -1
	}
	return 1
}

func viewVerdict(t *testing.T, text string) view.Result {
	t.Helper()
	r, err := trace.NewReader(strings.NewReader(text), "view-np.std", trace.Options{})
	require.NoError(t, err)
	res, err := view.Check(context.Background(), r, view.Options{})
	require.NoError(t, err)
	return res
}

// TestViewNPAgainstSAT: the trace of a random formula is view-serializable
// exactly when the solver satisfies the formula, on hundreds of formulas
// around the threshold (both answers often), and the solver agrees with
// the formula's own assignment-by-assignment check.
func TestViewNPAgainstSAT(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 29))
	counts, exhausted := map[bool]int{}, 0
	for range testflag.N(300, 2000) {
		vars := 3 + rng.IntN(6)
		f := RandomCNF(rng, vars, 1+rng.IntN(5*vars))
		sat := dpll(f.Clauses, make([]int, f.Vars+1))
		require.Equal(t, f.Satisfiable(), sat, "the solver on %v", f)
		res := viewVerdict(t, ViewNP(f))
		require.NotEqual(t, view.Unknown, res.Verdict, "%s on\n%v", res.Reason, f)
		require.Equal(t, sat, res.Verdict == view.Serializable, "decided by %s on\n%v", res.Decided, f)
		counts[sat]++
		if !sat {
			require.NotEmpty(t, res.Why)
			words := res.Names().Words(res.Why[0])
			require.Greater(t, len(words), 1, "an obstacle with its precedences")
			if res.Why[0].Kind == view.Exhausted {
				exhausted++
			}
		}
	}
	require.Greater(t, counts[true], 50, "%v", counts)
	require.Greater(t, counts[false], 50, "%v", counts)
	require.Greater(t, exhausted, 10, "searches that tried every place")
}

// TestViewNPEdgeFormulas: an empty clause, a one-literal clause, a
// variable with both signs in one clause, and no clause at all.
func TestViewNPEdgeFormulas(t *testing.T) {
	for _, c := range []struct {
		dimacs string
		sat    bool
	}{
		{"p cnf 2 2\n1 2 0\n0\n", false},
		{"p cnf 1 2\n1 0\n-1 0\n", false},
		{"p cnf 1 1\n1 -1 0\n", true},
		{"p cnf 3 0\n", true},
		{"p cnf 2 3\n1 0\n-1 2 0\n-2 1 0\n", true},
	} {
		f, err := ParseDIMACS(c.dimacs)
		require.NoError(t, err)
		require.Equal(t, c.sat, dpll(f.Clauses, make([]int, f.Vars+1)), c.dimacs)
		res := viewVerdict(t, ViewNP(f))
		require.Equal(t, c.sat, res.Verdict == view.Serializable, "%s: %v, %s", c.dimacs, res.Verdict, res.Decided)
	}
}
