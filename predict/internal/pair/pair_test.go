package pair

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/trace"
)

func never() bool { return false }

// TestLockedTwoSections: one atomic method with two critical sections of
// one lock, another thread's section writing after them. The first pass
// has indexed nothing when T1's second access comes; the second pass
// meets it with T2's write, by the second schedule (T1 holds l before its
// second access, so it waits at its lock-free point between the
// sections), and the plan replays.
func TestLockedTwoSections(t *testing.T) {
	src := "T1|begin\nT1|acq(l)\nT1|r(x)\nT1|rel(l)\nT1|acq(l)\nT1|w(x)\nT1|rel(l)\nT1|end\n" +
		"T2|acq(l)\nT2|w(x)\nT2|rel(l)\n"
	s, sp := projtest.FirstPass(t, src)
	ix, _, hit, err := IndexLocked(s, sp, never)
	require.NoError(t, err)
	require.False(t, hit)
	require.NotNil(t, ix)
	f, ok, err := FindLocked(s, sp, ix, never)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, [2]string{"T1", "T2"}, [2]string{s.ThreadNames[f.T1], s.ThreadNames[f.T2]})
	require.Equal(t, [2]int64{6, 10}, [2]int64{f.LineE2, f.LineF})
	require.Positive(t, f.P1, "the second schedule")
	require.True(t, strings.HasPrefix(LockedWhy(s, f), LockedNote))
	pl, err := PlanLocked(s, sp, f)
	require.NoError(t, err)
	for _, lockEdges := range []bool{false, true} {
		m, err := s.Materialise(sp, pl, false, lockEdges)
		require.NoError(t, err)
		require.NoError(t, s.Replays(m), "lock edges %v", lockEdges)
	}
}

// TestHBStepByStep: T2 reads x after T1's write of it and y after T1's
// write of y, as observed (no cycle); nothing orders T2's read of y after
// T1's write, so moving T1's write last closes T1 -> T2 -> T1. FindHB and
// HBScan stepped by hand find the same pattern.
func TestHBStepByStep(t *testing.T) {
	src := "T1|begin\nT1|w(x)\nT2|r(x)\nT1|w(y)\nT1|end\nT2|r(y)\n"
	s, sp := projtest.FirstPass(t, src)
	f, ok, err := FindHB(s, sp, never)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, [2]string{"T1", "T2"}, [2]string{s.ThreadNames[f.T1], s.ThreadNames[f.T2]})
	require.Equal(t, [3]int64{2, 4, 6}, [3]int64{f.LineE1, f.LineE2, f.LineF2})
	require.False(t, f.SameF)
	ps := NewHBScan(s)
	var g HBFind
	hit := false
	_, err = proj.SpoolEach(sp, never, func(ev *trace.Event) bool {
		g, hit = ps.Step(ev)
		return !hit
	})
	require.NoError(t, err)
	require.True(t, hit)
	require.Equal(t, f, g)
}
