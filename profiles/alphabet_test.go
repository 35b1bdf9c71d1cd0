package profiles

import (
	"math/rand"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestManyVariablesLinear: a thread that uses two of 10,000 declared
// variables. Its extraction allocates O(v) (row headers, the alphabet),
// not the two (2v)²-bit tables of before (200 MB), and its profiles are
// the oracle's over the letters it uses.
func TestManyVariablesLinear(t *testing.T) {
	const nvars = 10_000
	a := line("b r0 w1 e b w0 e")
	a.Out[1][0].Ev.Target, a.Out[5][0].Ev.Target = nvars-1, nvars-1 // variable 0 becomes the last
	var p *Profiles
	n := allocated(func() {
		var err error
		p, err = Extract(a, nvars)
		require.NoError(t, err)
	})
	t.Logf("allocated %d KiB", n>>10)
	require.Less(t, n, uint64(4<<20))
	small := line("b r0 w1 e b w0 e")
	want, err := Extract(small, 2)
	require.NoError(t, err)
	rename := map[Letter]Letter{0: 2 * (nvars - 1), 1: 2*(nvars-1) + 1, 2: 2, 3: 3}
	require.Equal(t, len(want.List()), len(p.List()))
	for _, pr := range want.List() {
		pr.A, pr.B = rename[pr.A], rename[pr.B]
		require.True(t, p.Has(pr), "%v", pr)
	}
}

// BenchmarkExtractManyVariables: a thread of three accesses to two of
// 10,000 declared variables.
func BenchmarkExtractManyVariables(b *testing.B) {
	a := line("b r0 w1 e b w0 e")
	a.Out[1][0].Ev.Target, a.Out[5][0].Ev.Target = 9_999, 9_999
	for b.Loop() {
		if _, err := Extract(a, 10_000); err != nil {
			b.Fatal(err)
		}
	}
}

// spread renames variable x of a to x·97+13, so that a program of many
// variables uses a few scattered ones.
func spread(a *model.Automaton) *model.Automaton {
	b := &model.Automaton{Init: a.Init, InTxn: a.InTxn, Held: a.Held, Out: make([][]model.Edge, len(a.Out))}
	for q, es := range a.Out {
		b.Out[q] = append([]model.Edge(nil), es...)
		for i := range b.Out[q] {
			if b.Out[q][i].Ev.Op.IsAccess() {
				b.Out[q][i].Ev.Target = b.Out[q][i].Ev.Target*97 + 13
			}
		}
	}
	return b
}

// spreadLetter is spread on letters.
func spreadLetter(l Letter) Letter { return Letter(2*(l.Var()*97+13)) + l&1 }

// TestLocalAlphabetAgrees: over 400 declared variables (beyond
// identityLetters, so the extraction works on local letters) the profiles
// of random finite and pushdown automata over three scattered variables are
// those over three variables, renamed.
func TestLocalAlphabetAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(19))
	for i := 0; i < 300; i++ {
		var a *model.Automaton
		if i%2 == 0 {
			a = randomAuto(r, 2+r.Intn(8), r.Intn(16), 3)
		} else {
			a = randomPDA(r, 2+r.Intn(8), r.Intn(16), 3, 1+r.Intn(2))
		}
		small, err := Extract(a, 3)
		require.NoError(t, err)
		big, err := Extract(spread(a), 400)
		require.NoError(t, err)
		var want []Profile
		for _, p := range small.List() {
			want = append(want, Profile{p.Kind, spreadLetter(p.A), spreadLetter(p.B)})
		}
		require.Equal(t, want, big.List(), "automaton %d", i)
		require.Equal(t, small.Edges, big.Edges)
		require.Equal(t, small.Sync, big.Sync)
	}
}
