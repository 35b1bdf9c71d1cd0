package predict

import (
	"strings"

	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// TestLinesPast32Bits: a trace read after 2³² + 4 lines (Options.Tuning.LineShift
// stands for the blank lines, which would take a minute to read) keeps its
// line numbers in the witness of every path that builds one: the
// lock-free scan, the lock-aware shortcuts, the global engine's expanded
// run and --all's batches. Lines were 32-bit in the witness's events and
// wrapped: line 4,294,967,301 read as 5.
func TestLinesPast32Bits(t *testing.T) {
	const shift = 1<<32 + 4
	free := "T0|begin\nT0|r(x)\nT1|w(x)\nT0|w(x)\nT0|end\n"
	locked := "T1|acq(m)\nT1|rel(m)\n" + free + "T0|acq(m)\nT0|rel(m)\n"
	for _, c := range []struct {
		src string
		o   Options
	}{
		{free, Options{}},
		{locked, Options{}},
		{locked, Options{Engine: "global"}},
	} {
		c.o.Tuning.LineShift = shift
		out := predictString(t, c.src, c.o)
		require.Equal(t, engines.Violation, out.Result.Verdict)
		requireShiftedLines(t, out.Result.Witness.Run, shift, c.src)
		a := allString(t, c.src, c.o)
		require.Equal(t, engines.Violation, a.Result.Verdict)
		for k, g := range a.Groups {
			require.Greater(t, g.First, int64(shift), g.Signature)
			w, err := a.Witness(k)
			require.NoError(t, err)
			require.NotNil(t, w)
			requireShiftedLines(t, w.Result.Witness.Run, shift, c.src)
		}
	}
}

// requireShiftedLines: every event of run has a line of src, shifted.
func requireShiftedLines(t *testing.T, run []model.Step, shift int64, src string) {
	n := int64(strings.Count(src, "\n"))
	for _, st := range run {
		l := int64(st.Ev.Pos.Line) - shift
		require.True(t, l >= 1 && l <= n, "line %d (%s)", st.Ev.Pos.Line, st.Ev.Pos)
	}
}
