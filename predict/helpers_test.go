package predict

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/trace"
)

// The random observed executions and the projection builder live in
// projtest, shared with the finders' tests.
type (
	traceShape = projtest.Shape
	step       = projtest.Step
	pairShape  = projtest.PairShape
)

var (
	randomShape  = projtest.RandomShape
	randomTrace  = projtest.RandomTrace
	schedule     = projtest.Schedule
	interleave   = projtest.Interleave
	enabled      = projtest.Enabled
	projectionOf = projtest.Projection
	threadOf     = projtest.ThreadOf
	stepLine     = projtest.StepLine

	randomPairShape = projtest.RandomPairShape
	writersAfter    = projtest.WritersAfter
	stuckTrace      = projtest.Stuck
	ringTrace       = projtest.Ring
)

// predictString runs Predict on an STD text.
func predictString(t testing.TB, src string, o Options) *Outcome {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	out, err := Predict(context.Background(), r, o)
	require.NoError(t, err, "trace:\n%s", src)
	return out
}

// b2i counts a true as one.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
