package products

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
)

// input runs predict's first pass on src and counts the reduced
// projection with its synchronisation.
func input(t *testing.T, src string, lockEdges bool) (Input, *proj.Reduced) {
	s, sp := projtest.FirstPass(t, src)
	in := Input{Ctx: context.Background(), Summary: s, Spool: sp, Users: s.Users(), Check: engines.Options{LockEdges: lockEdges},
		Fits: func(int64) bool { return true }, States: func(int64) int { return 0 }}
	size, err := s.Reduce(sp, in.Users, lockEdges, false, true)
	require.NoError(t, err)
	return in, size
}

// TestDecideHandsOverARun: under lock edges a forked and joined thread
// closes the cycle fork -> it -> join through the main transaction; the
// pair's run is handed to accept, which takes it, and the pairs stop.
func TestDecideHandsOverARun(t *testing.T) {
	in, size := input(t, "T0|begin\nT0|fork(T1)\nT1|begin\nT1|r(x)\nT1|end\nT0|join(T1)\nT0|end\n", true)
	var got []proj.Plan
	found, pp, err := Decide(in, size, func(t1, t2 int, pl proj.Plan) (bool, error) {
		require.Equal(t, [2]int{0, 1}, [2]int{t1, t2})
		got = append(got, pl)
		return true, nil
	})
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, 2, pp.Busy)
	require.Len(t, got, 1)
	require.NotEmpty(t, got[0].Cycle)
}

// TestDecideRefusedRunIsUndecided: a run accept refuses leaves its pair
// undecided, so nothing is proved.
func TestDecideRefusedRunIsUndecided(t *testing.T) {
	in, size := input(t, "T0|begin\nT0|fork(T1)\nT1|begin\nT1|r(x)\nT1|end\nT0|join(T1)\nT0|end\n", true)
	found, pp, err := Decide(in, size, func(int, int, proj.Plan) (bool, error) { return false, nil })
	require.NoError(t, err)
	require.False(t, found)
	require.False(t, pp.Proved)
}

// TestDecideProves: two threads whose transactions are critical sections
// of one lock over the variables they share have no two-thread cycle.
func TestDecideProves(t *testing.T) {
	src := "T1|acq(m)\nT1|begin\nT1|r(x)\nT1|w(x)\nT1|end\nT1|rel(m)\n" +
		"T2|acq(m)\nT2|begin\nT2|w(x)\nT2|r(x)\nT2|end\nT2|rel(m)\n"
	in, size := input(t, src, false)
	found, pp, err := Decide(in, size, func(int, int, proj.Plan) (bool, error) {
		t.Fatal("no run should be found")
		return false, nil
	})
	require.NoError(t, err)
	require.False(t, found)
	require.True(t, pp.Proved)
	require.Equal(t, 2, pp.Busy)
}
