package predict

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/predict/internal/tuning"
)

// TestNestedLimitIsNoProof: step 5c stopped by its first pass's limit
// (here 1; it is polled every 4,096 events) proves nothing (predict/all's
// TestAllNestedLimitIncomplete: --all then says its groups may not be
// all).
func TestNestedLimitIsNoProof(t *testing.T) {
	src := strings.Replace(projtest.LongSection(1500, 3), "T1|begin\nT1|r(x1)\nT1|r(x1)\nT1|end\n",
		"T1|begin\nT1|acq(o)\nT1|r(x1)\nT1|r(x1)\nT1|rel(o)\nT1|end\n", 1)
	for _, limit := range []int64{0, 1} {
		p := testPredictor(t, src, Options{Unbounded: true, Tuning: tuning.Limits{MaxNest: limit}})
		out, nr, err := p.nestedPairs()
		require.NoError(t, err)
		require.Nil(t, out)
		require.Equal(t, limit == 0, nr.proved, "limit %d", limit) // T1 holds o, which T0 holds at every write
	}
}
