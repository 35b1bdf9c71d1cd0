package predict

import (
	"context"
	"strings"
	"testing"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/trace"
	"github.com/stretchr/testify/require"
)

// predictOrdered is predictString on a trace read with the ordering
// extension (docs/spec.md §3).
func predictOrdered(t testing.TB, src string, o Options) *Outcome {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	out, err := Predict(context.Background(), r, o)
	require.NoError(t, err, "trace:\n%s", src)
	return out
}

// A trace with read locks or messages is proved serializable when it is
// so even with every synchronisation dropped (without lock edges: that
// only adds runs); with lock edges, which the orderings add to, nothing
// is proved.
func TestOrderingsProvedWithoutSync(t *testing.T) {
	src := "T1|begin\nT1|racq(l)\nT1|r(x)\nT1|rrel(l)\nT1|post(m)\nT1|end\nT2|wait(m)\nT2|acq(l)\nT2|w(y)\nT2|rel(l)\n"
	out := predictOrdered(t, src, Options{})
	require.Equal(t, engines.Serializable, out.Result.Verdict, out.Result.Reason)
	require.Equal(t, prefilterNote, out.Result.Reason)
	out = predictOrdered(t, src, Options{Check: engines.Options{LockEdges: true}})
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Equal(t, orderingsLockEdgesNote, out.Result.Reason)
}
