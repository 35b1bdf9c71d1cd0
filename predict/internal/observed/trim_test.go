package observed

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/verify"
)

// TestObservedTrim: the observed witness keeps only what happens before
// the cycle: T3's private work is dropped, T4's release of the lock T2 then
// takes is kept (with T4's events before it), and the run still replays.
func TestObservedTrim(t *testing.T) {
	src := "T1|begin\nT1|r(x)\n" + strings.Repeat("T3|w(z)\n", 40) +
		"T4|acq(m)\nT4|w(q)\nT4|rel(m)\nT4|w(q)\n" +
		"T2|acq(m)\nT2|w(x)\nT2|rel(m)\nT1|w(x)\nT1|end\n"
	in := firstPass(t, src, false)
	v, first, ok, err := Find(context.Background(), in, nil)
	require.NoError(t, err)
	require.True(t, ok)
	pl, ok, err := Plan(in, v, first)
	require.NoError(t, err)
	require.True(t, ok)
	trimmed, err := Trim(in, pl, first)
	require.NoError(t, err)
	ran := map[int]int64{}
	for t, n := range trimmed.Observed.Cut {
		if n > 0 {
			ran[t] = n
		}
	}
	// Threads by first appearance: T1 0, T3 1, T4 2, T2 3. T1 runs to its
	// w(x); T4 to its release (acq; begin w end; rel); T2 through its
	// unary w(x) and the end that comes with it.
	require.Equal(t, map[int]int64{0: 3, 2: 5, 3: 4}, ran)
	m, err := in.Summary.Materialise(in.Spool, trimmed, false, false)
	require.NoError(t, err)
	require.NoError(t, verify.Witness(projtest.Projection(t, src), m.Witness))
	for _, st := range m.Witness.Run {
		require.NotEqual(t, int32(1), st.Thread)
	}
	require.Equal(t, model.OpWrite, m.Witness.Run[len(m.Witness.Run)-1].Ev.Op)
}
