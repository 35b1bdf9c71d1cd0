package all

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/predict/internal/tuning"
)

// TestAllNestedLimitIncomplete: step 5c stopped by its first pass's limit
// (here 1; it is polled every 4,096 events) proves nothing, and --all
// says its groups may not be all (a pass cut short has not seen every
// one-variable group under nested locking); without the limit the
// listing is complete.
func TestAllNestedLimitIncomplete(t *testing.T) {
	src := "T1|begin\nT1|acq(l)\nT1|r(x)\nT1|acq(k)\nT1|r(x)\nT1|rel(k)\nT1|rel(l)\nT1|end\n" +
		"T2|acq(k)\nT2|w(x)\nT2|rel(k)\n" + strings.Repeat("T3|acq(n)\nT3|w(y)\nT3|rel(n)\n", 1500)
	a := allString(t, src, predict.Options{Unbounded: true})
	require.Equal(t, engines.Violation, a.Result.Verdict)
	require.Empty(t, a.Incomplete)
	a = allString(t, src, predict.Options{Unbounded: true, Tuning: tuning.Limits{MaxNest: 1}})
	require.Equal(t, nestCut, a.Incomplete)
}

// TestAllDeepNestingOneGroup: at depth 10,000 (internal/nested's
// TestDeepNestingLinear) --all lists the one group, completely.
func TestAllDeepNestingOneGroup(t *testing.T) {
	a := allString(t, projtest.DeepNesting(10_000), predict.Options{})
	require.Equal(t, engines.Violation, a.Result.Verdict)
	require.Empty(t, a.Incomplete)
	require.Len(t, a.Groups, 1)
}
