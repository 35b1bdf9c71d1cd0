package predicted

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/all"
	"github.com/conc-dev/conc/trace"
)

// TestPredictAllStopBuilding: a deadline passed after All (here a
// cancelled context, no clock) stops the listing before the first witness
// not yet built: the first group, built by All, is still shown, and
// Incomplete counts the groups left out.
func TestPredictAllStopBuilding(t *testing.T) {
	var b strings.Builder
	for k := range 3 { // 3 bugs, 3 groups
		fmt.Fprintf(&b, "T0|begin\nT0|r(x%d)\nT0|r(x%d)\nT0|end\nT1|w(x%d)\n", k, k, k)
	}
	r, err := trace.NewReader(strings.NewReader(b.String()), "t.std", trace.Options{})
	require.NoError(t, err)
	a, err := all.Find(context.Background(), r, predict.Options{})
	require.NoError(t, err)
	defer a.Close()
	require.Len(t, a.Groups, 3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var shown []int
	next, err := eachWitness(ctx, a, func(k int, out *predict.Outcome) (bool, error) {
		shown = append(shown, k)
		return true, nil
	})
	require.NoError(t, err)
	require.Equal(t, []int{0}, shown)
	require.Equal(t, 1, next)
	require.Equal(t, "the deadline came before the witnesses of the last 2 groups were built (--timeout)", a.Incomplete)

	// The text says so, and does not send the user to --max-groups 0,
	// which would show no more (with it or with the default 20).
	for _, maxGroups := range []int{0, 20} {
		a.Incomplete = ""
		var text strings.Builder
		require.NoError(t, WriteAllText(ctx, &text, a, AllTextOptions{MaxGroups: maxGroups}))
		require.Contains(t, text.String(), "group 1: 1 pattern")
		require.NotContains(t, text.String(), "group 2:")
		require.Contains(t, text.String(), "... and 2 more groups (not shown: the deadline came before their witnesses were built)\n"+
			"note: the groups may not be all: the deadline came before the witnesses of the last 2 groups were built (--timeout)\n")
	}

	// The memory budget's watch ends the context too: the text names the
	// budget, not the deadline.
	ctx, cancelCause := context.WithCancelCause(context.Background())
	cancelCause(&budget.Exceeded{Limit: 200 << 20})
	a.Incomplete = ""
	var text strings.Builder
	require.NoError(t, WriteAllText(ctx, &text, a, AllTextOptions{MaxGroups: 20}))
	require.Contains(t, text.String(), "... and 2 more groups (not shown: the memory budget of 200 MiB was reached before their witnesses were built)\n"+
		"note: the groups may not be all: the memory budget of 200 MiB was reached before the witnesses of the last 2 groups were built (--max-memory raises it)\n")
}
