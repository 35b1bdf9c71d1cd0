package profile

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// pfDump prints a program's automata for failure messages.
func pfDump(p *model.Program) string {
	s := ""
	for _, t := range p.Threads {
		s += fmt.Sprintf("%s init %d:", t.Name, t.Auto.Init)
		for q, es := range t.Auto.Out {
			for _, e := range es {
				s += fmt.Sprintf(" %d-%s%d->%d", q, e.Ev.Op, e.Ev.Target, e.To)
			}
		}
		s += "\n"
	}
	return s
}

// pfAgainstBrute compares the profile engine with brute on p. Brute bounds
// loops (--max-depth), so it may answer unknown on a program with loops;
// then the profile engine's answer is only checked by its witness (pfCheck
// replays every witness). On a loop-free program brute is exact.
func pfAgainstBrute(t *testing.T, seed int64, p *model.Program) (engines.Verdict, engines.Verdict) {
	got := pfCheck(t, p, engines.Options{})
	b, err := engines.Lookup("brute")
	require.NoError(t, err)
	want, err := b.Check(t.Context(), p, engines.Options{})
	require.NoError(t, err)
	if p.LoopFree() {
		require.NotEqual(t, engines.Unknown, want.Verdict, "seed %d: brute on a loop-free program: %s\n%s", seed, want.Reason, pfDump(p))
	}
	if want.Verdict != engines.Unknown {
		require.Equal(t, want.Verdict, got, "seed %d\n%s", seed, pfDump(p))
	}
	return got, want.Verdict
}

// TestProfileRandomStraightLine: random straight-line programs, 2-5 threads,
// small enough for brute to be exact.
func TestProfileRandomStraightLine(t *testing.T) {
	counts := map[engines.Verdict]int{}
	for seed := int64(0); seed < 600; seed++ {
		r := rand.New(rand.NewSource(seed))
		k, nvars := 2+r.Intn(4), 1+r.Intn(3)
		var autos []*model.Automaton
		for i := 0; i < k; i++ {
			if i > 0 && r.Intn(4) == 0 {
				autos = append(autos, autos[r.Intn(i)]) // shared: identical threads
				continue
			}
			autos = append(autos, pfRandomLine(r, nvars, 2, 2))
		}
		got, _ := pfAgainstBrute(t, seed, pfProg(nvars, autos...))
		counts[got]++
	}
	t.Logf("verdicts: %v", counts)
	require.Greater(t, counts[engines.Serializable], 30)
	require.Greater(t, counts[engines.Violation], 30)
}

// TestProfileRandomRegular: random regular automata; brute is bounded, so
// only its definite answers are compared.
func TestProfileRandomRegular(t *testing.T) {
	counts := map[[2]engines.Verdict]int{}
	for seed := int64(0); seed < 1000; seed++ {
		r := rand.New(rand.NewSource(seed))
		k, nvars := 2+r.Intn(3), 1+r.Intn(2)
		var autos []*model.Automaton
		for i := 0; i < k; i++ {
			n := 1 + r.Intn(5)
			autos = append(autos, pfRandomAuto(r, n, r.Intn(2*n+1), nvars))
		}
		got, want := pfAgainstBrute(t, seed, pfProg(nvars, autos...))
		counts[[2]engines.Verdict{got, want}]++
	}
	t.Logf("(profile, brute) verdicts: %v", counts)
}
