package monitor

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// EventsAt finds the events at the lines asked for (in any order, repeats
// allowed) and skips lines without one.
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

// EventsAt reads no further than the batch holding the last line asked
// for: the rest of a long trace is left unread.
func TestEventsAtStopsAtTheLast(t *testing.T) {
	const n = 20000
	std := strings.Repeat("T1|w(x)|a\n", n)
	r, err := trace.NewReader(strings.NewReader(std), "t.std", trace.Options{})
	require.NoError(t, err)
	got, err := EventsAt(r, []int64{2})
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Less(t, r.EventsRead(), int64(n/2))
}
