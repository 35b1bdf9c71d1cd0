package profiles

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/conc-dev/conc/model"
	"github.com/stretchr/testify/require"
)

func lt(s string) Letter { return LetterOf(ev(s)) }

func TestExtractStraightLine(t *testing.T) {
	// [r0 w1] [w0] [r1]
	p, err := Extract(line("b r0 w1 e b w0 e b r1 e"), 2)
	require.NoError(t, err)
	require.Equal(t, []Letter{lt("r0"), lt("w0"), lt("r1"), lt("w1")}, p.Single.Letters())
	require.Equal(t, []Letter{lt("w1")}, p.Same[lt("r0")].Letters())
	require.True(t, p.Same[lt("w1")].Empty())
	require.Equal(t, []Letter{lt("w0"), lt("r1")}, p.Diff[lt("r0")].Letters())
	require.Equal(t, []Letter{lt("w0"), lt("r1")}, p.Diff[lt("w1")].Letters())
	require.Equal(t, []Letter{lt("r1")}, p.Diff[lt("w0")].Letters())
	require.Equal(t, 4+1+5, p.Count())
}

func TestExtractRepeatedLetter(t *testing.T) {
	// Two reads of x in one transaction make ▷ r0 r0 ◁; one read does not.
	p, err := Extract(line("b r0 r0 e"), 1)
	require.NoError(t, err)
	require.True(t, p.Has(Profile{KindSame, lt("r0"), lt("r0")}))
	q, err := Extract(line("b r0 e"), 1)
	require.NoError(t, err)
	require.False(t, q.Has(Profile{KindSame, lt("r0"), lt("r0")}))
	require.True(t, q.Has(Profile{KindSingle, lt("r0"), lt("r0")}))
}

func TestExtractLoop(t *testing.T) {
	// loop { atomic { read x; write y } }: the loop makes every pair of
	// letters a Diff profile, and r0 before w1 a Same one, but never w1
	// before r0 in one transaction.
	a := &model.Automaton{
		Out: [][]model.Edge{
			{{To: 1, Ev: ev("b")}},
			{{To: 2, Ev: ev("r0")}},
			{{To: 3, Ev: ev("w1")}},
			{{To: 0, Ev: ev("e")}},
		},
		InTxn: []bool{false, true, true, true},
		Held:  make([][]int32, 4),
	}
	p, err := Extract(a, 2)
	require.NoError(t, err)
	require.True(t, p.Has(Profile{KindSame, lt("r0"), lt("w1")}))
	require.False(t, p.Has(Profile{KindSame, lt("w1"), lt("r0")}))
	for _, x := range []Letter{lt("r0"), lt("w1")} {
		for _, y := range []Letter{lt("r0"), lt("w1")} {
			require.True(t, p.Has(Profile{KindDiff, x, y}), "diff %d %d", x, y)
		}
	}
	require.Equal(t, oracle(a, 2), rel(p))
}

func TestExtractIgnoresUnreachable(t *testing.T) {
	a := line("b r0 e")
	a.Out = append(a.Out, []model.Edge{{To: 0, Ev: ev("w0")}}) // state 4, unreachable
	a.InTxn = append(a.InTxn, true)
	a.Held = append(a.Held, nil)
	a.Out[0] = append(a.Out[0], model.Edge{To: 0, Ev: ev("s")}) // a branch: not straight-line
	p, err := Extract(a, 1)
	require.NoError(t, err)
	require.Equal(t, []Letter{lt("r0")}, p.Single.Letters())
}

// TestExtractMatchesOracle compares the dataflow with per-profile product
// searches on random automata, including wide ones (over 32 variables).
func TestExtractMatchesOracle(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 400; i++ {
		nvars := 1 + r.Intn(3)
		if i%50 == 0 {
			nvars = 33 + r.Intn(3)
		}
		n := 1 + r.Intn(8)
		a := randomAuto(r, n, r.Intn(3*n+1), nvars)
		got, err := Extract(a, nvars)
		require.NoError(t, err)
		require.Equal(t, oracle(a, nvars), rel(got), "seed 1 case %d: %+v", i, a.Out)
	}
}

// TestLineMatchesRegular checks the straight-line fast path against the
// general fixpoint on the same chains.
func TestLineMatchesRegular(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	toks := []string{"r0", "w0", "r1", "w1", "r2", "s"}
	for i := 0; i < 200; i++ {
		spec := ""
		for j := r.Intn(6); j > 0; j-- {
			spec += " b"
			for k := r.Intn(4); k > 0; k-- {
				spec += " " + toks[r.Intn(len(toks))]
			}
			spec += " e"
		}
		a := line(spec)
		c1, c2 := newCollector(a, 3), newCollector(a, 3)
		ok, err := extractLine(a, c1)
		require.NoError(t, err)
		require.True(t, ok)
		require.NoError(t, extractRegular(a, c2))
		require.Equal(t, c2.profiles(), c1.profiles(), spec)
		require.Equal(t, len(strings.Fields(spec)), c1.edges)
		require.Equal(t, oracle(a, 3), rel(c1.profiles()), spec)
	}
}

func TestExtractErrors(t *testing.T) {
	_, err := Extract(line("b r3 e"), 2)
	require.ErrorContains(t, err, "variable 3")
	a := line("b r0 e")
	a.Out[0][0].To = 9
	_, err = Extract(a, 1)
	require.ErrorContains(t, err, "missing state")
}

func TestProfileAutomatonRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 200; i++ {
		nvars := 1 + r.Intn(3)
		n := 1 + r.Intn(8)
		p, err := Extract(randomAuto(r, n, r.Intn(3*n+1), nvars), nvars)
		require.NoError(t, err)
		q, err := Extract(ProfileAutomaton(p), nvars)
		require.NoError(t, err)
		require.Equal(t, rel(p), rel(q), "case %d", i)
	}
}

func TestConflicting(t *testing.T) {
	s := NewSet(1)
	s.Add(lt("r0"))
	s.Add(lt("w2"))
	require.Equal(t, []Letter{lt("w0"), lt("r2"), lt("w2")}, s.Conflicting().Letters())
	for x := Letter(0); x < 8; x++ {
		one := NewSet(1)
		one.Add(x)
		for y := Letter(0); y < 8; y++ {
			require.Equal(t, x.Conflicts(y), one.Conflicting().Has(y))
		}
	}
}

// rel is p without its counters: just the three relations.
func rel(p *Profiles) *Profiles {
	q := *p
	q.Edges, q.Sync = 0, false
	return &q
}

func TestExtractCountsAndSync(t *testing.T) {
	p, err := Extract(line("b r0 e"), 1)
	require.NoError(t, err)
	require.Equal(t, 3, p.Edges)
	require.False(t, p.Sync)
	a := line("b r0 s e")
	a.Out[2][0].Ev = model.Event{Op: model.OpAcquire, Target: 0}
	p, err = Extract(a, 1)
	require.NoError(t, err)
	require.True(t, p.Sync)
	require.Equal(t, []Letter{lt("r0")}, p.Single.Letters())
	a.Out[0] = append(a.Out[0], model.Edge{To: 0, Ev: ev("s")}) // regular now
	p, err = Extract(a, 1)
	require.NoError(t, err)
	require.True(t, p.Sync)
	require.Equal(t, 5, p.Edges)
}
