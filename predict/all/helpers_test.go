package all

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/trace"
)

// The random observed executions, the projection builder and the scale
// shapes live in projtest, shared with predict's tests.
type traceShape = projtest.Shape

var (
	randomShape     = projtest.RandomShape
	randomTrace     = projtest.RandomTrace
	randomPairShape = projtest.RandomPairShape
	projectionOf    = projtest.Projection
	ringTrace       = projtest.Ring
	stuckTrace      = projtest.Stuck
)

// predictConfigs are the ways --all is asked as predict is: auto, with
// lock edges, and --ignore-sync.
var predictConfigs = []struct {
	name string
	o    predict.Options
}{
	{"auto", predict.Options{}},
	{"auto lock-edges", predict.Options{Check: engines.Options{LockEdges: true}}},
	{"ignore-sync", predict.Options{Check: engines.Options{IgnoreSync: true}}},
}

// predictString runs predict.Predict on an STD text.
func predictString(t testing.TB, src string, o predict.Options) *predict.Outcome {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	out, err := predict.Predict(context.Background(), r, o)
	require.NoError(t, err, "trace:\n%s", src)
	return out
}

// requireSTDRoundTrip: the witness written as STD is a trace whose every
// line is an original line's event, and which conc monitor's checker
// finds not serializable (projtest.RequireSTDRun).
func requireSTDRoundTrip(t *testing.T, src string, out *predict.Outcome, lockEdges bool) {
	t.Helper()
	var b strings.Builder
	require.NoError(t, predict.WriteSTD(&b, out.Program, out.Result.Witness))
	projtest.RequireSTDRun(t, src, b.String(), lockEdges)
}
