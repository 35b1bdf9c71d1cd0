package monitor

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// EventsAt finds the events at the lines asked for (in any order, repeats
// allowed), skips lines without one, and stops at the last.
func TestEventsAt(t *testing.T) {
	const std = "T1|begin|a\nT1|r(x)|b\nT2|w(x)|c\n\nT2|acq(m)|d\nT1|end|e\n"
	r, err := trace.NewReader(strings.NewReader(std), "t.std", trace.Options{})
	require.NoError(t, err)
	got, err := EventsAt(r, []int64{5, 2, 4, 5})
	require.NoError(t, err)
	require.Len(t, got, 2, "line 4 is blank")
	require.Equal(t, model.OpRead, got[2].Op)
	require.Equal(t, "x", r.Vars().Name(got[2].Target))
	require.Equal(t, "b", r.Locs().Name(got[2].Loc))
	require.Equal(t, model.OpAcquire, got[5].Op)
	require.Equal(t, "T2", r.Threads().Name(got[5].Thread))
}
