package predict

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/trace"
)

// allWithin runs All on an STD text under a deadline, and reports how
// long it took.
func allWithin(t *testing.T, src string, o Options, d time.Duration) (*AllOutcome, time.Duration) {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	a, err := All(ctx, r, o)
	require.NoError(t, err)
	t.Cleanup(func() { a.Close() })
	return a, time.Since(start)
}

// TestAllDeadlineAfterScanHit: 5,000 threads of `begin r(x) w(x) end`,
// any two of which violate. Under a deadline (no default chain budget)
// --all's scan meets every access until the deadline stops it; the group
// it found then still gets its witness (finding one chain again is
// bounded work), so the answer is that violation, not an internal error
// because the chain search refused to run past the deadline.
func TestAllDeadlineAfterScanHit(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "T%d|begin\nT%[1]d|r(x)\nT%[1]d|w(x)\nT%[1]d|end\n", i)
	}
	a, took := allWithin(t, b.String(), Options{}, 50*time.Millisecond)
	require.Equal(t, engines.Violation, a.Result.Verdict, a.Result.Reason)
	require.Equal(t, "deadline reached (--timeout)", a.Incomplete)
	w, err := a.Witness(0)
	require.NoError(t, err)
	require.NotNil(t, w)
	require.Less(t, took, 20*time.Second)
}
