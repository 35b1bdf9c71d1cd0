package profiles

import (
	"math/rand"
	"testing"

	"github.com/conc-dev/conc/model"
	"github.com/stretchr/testify/require"
)

// checkPath asserts that path is a path of a from Init whose moves ia and ib
// carry pr's letters with pr's transaction relation between them.
func checkPath(t *testing.T, a *model.Automaton, pr Profile, path []model.Move, ia, ib int) {
	t.Helper()
	q := a.Init
	ends := 0
	for i, m := range path {
		require.Equal(t, q, m.From, "move %d", i)
		e := a.Out[m.From][m.Edge]
		if i > ia && i < ib && e.Ev.Op == model.OpEnd {
			ends++
		}
		q = e.To
	}
	require.Equal(t, len(path)-1, ib)
	require.Equal(t, pr.A, LetterOf(a.Out[path[ia].From][path[ia].Edge].Ev))
	require.Equal(t, pr.B, LetterOf(a.Out[path[ib].From][path[ib].Edge].Ev))
	switch pr.Kind {
	case KindSingle:
		require.Equal(t, ia, ib)
	case KindSame:
		require.Less(t, ia, ib)
		require.Zero(t, ends)
	case KindDiff:
		require.Less(t, ia, ib)
		require.NotZero(t, ends)
	}
}

func TestPathRealisesEveryProfile(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	total := 0
	for i := 0; i < 200; i++ {
		nvars := 1 + r.Intn(3)
		n := 1 + r.Intn(8)
		a := randomAuto(r, n, r.Intn(3*n+1), nvars)
		p, err := Extract(a, nvars)
		require.NoError(t, err)
		for _, pr := range p.List() {
			path, ia, ib, ok, err := Path(a, pr)
			require.NoError(t, err)
			require.True(t, ok, "case %d profile %+v", i, pr)
			checkPath(t, a, pr, path, ia, ib)
			total++
		}
	}
	require.Greater(t, total, 500, "random automata should have many profiles")
}

func TestPathRejectsPushdown(t *testing.T) {
	a := line("b r0 e")
	a.Out[0][0].Stack = model.StackPush
	_, _, _, _, err := Path(a, Profile{KindSingle, 0, 0})
	require.Error(t, err)
}

// TestLinePathMatchesSearch compares the straight-line scan with the
// breadth-first search on random straight-line threads: same answer, same
// (shortest) length, and a path that exhibits the profile.
func TestLinePathMatchesSearch(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	toks := []string{"r0", "w0", "r1", "w1", "s"}
	checked := 0
	for i := 0; i < 300; i++ {
		spec := ""
		for j := r.Intn(5); j > 0; j-- {
			spec += " b"
			for k := r.Intn(4); k > 0; k-- {
				spec += " " + toks[r.Intn(len(toks))]
			}
			spec += " e"
		}
		a := line(spec)
		for x := Letter(0); x < 4; x++ {
			for y := Letter(0); y < 4; y++ {
				for _, kind := range []Kind{KindSingle, KindSame, KindDiff} {
					pr := Profile{kind, x, y}
					if kind == KindSingle {
						pr.B = x
					}
					path, ia, ib, ok, isLine := linePath(a, pr)
					require.True(t, isLine)
					m := newMatcher(a, pr)
					final, found := m.search()
					require.Equal(t, found, ok, "%s %+v", spec, pr)
					if ok {
						checkPath(t, a, pr, path, ia, ib)
						bfs, _ := m.trace(final)
						require.Len(t, path, len(bfs))
						checked++
					}
				}
			}
		}
	}
	require.Greater(t, checked, 1000)
}
