package hb

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
)

// TestCut: the cut of T2's write of x takes T1 through the release T2's
// acquire needs and nothing of T3, which runs unsynchronised; T1's own
// write needs nothing of the others; an event past line first is not in
// the prefix. Edges: a lock event is one, a unary access three (begin;
// access; end, the access the middle one).
func TestCut(t *testing.T) {
	src := "T1|acq(m)\nT1|w(x)\nT1|rel(m)\nT3|w(z)\nT2|w(y)\nT2|acq(m)\nT2|w(x)\nT2|rel(m)\n"
	s, sp := projtest.FirstPass(t, src)
	t2x := proj.Ref{Thread: 2, Edge: 5}
	need, ok, err := Cut(s, sp, [][2]proj.Ref{{t2x, t2x}}, 8)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, []int64{5, 0, 7}, need) // threads by first appearance: T1, T3, T2
	t1x := proj.Ref{Thread: 0, Edge: 2}
	need, ok, err = Cut(s, sp, [][2]proj.Ref{{t1x, t1x}}, 8)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, []int64{4, 0, 0}, need)
	_, ok, err = Cut(s, sp, [][2]proj.Ref{{t1x, t2x}}, 6)
	require.NoError(t, err)
	require.False(t, ok)
}
