package profiles

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
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
