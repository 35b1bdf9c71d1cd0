package predict_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/all"
	"github.com/conc-dev/conc/testkit/schedtest"
	"github.com/conc-dev/conc/trace"
)

// predict's tests that check predict --all too run it through these
// hooks (allhook_test.go): predict/all imports predict, so only a test
// package outside predict can import it.
func init() { predict.SetAllHooks(findAll, requireScheduleExact) }

// findAll runs all.Find on an STD text.
func findAll(t testing.TB, src string, o predict.Options) *predict.AllAnswer {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	a, err := all.Find(context.Background(), r, o)
	require.NoError(t, err, "trace:\n%s", src)
	t.Cleanup(func() { a.Close() })
	groups := make([]predict.AllGroup, len(a.Groups))
	for k, g := range a.Groups {
		groups[k] = predict.AllGroup{Signature: g.Signature, First: g.First}
	}
	return &predict.AllAnswer{Result: a.Result, Groups: groups, Witness: a.Witness, Dropped: a.Dropped,
		Source: func(k int) string { return a.Groups[k].Source }}
}

// requireScheduleExact: the witness's schedule rebuilds the run
// --witness-out writes, event by event (testkit/schedtest, as docs/spec.md
// §5 states it).
func requireScheduleExact(t *testing.T, src string, out *predict.Outcome, dropSync bool) {
	t.Helper()
	var want strings.Builder
	require.NoError(t, predict.WriteSTD(&want, out.Program, out.Result.Witness))
	sch := all.ScheduleOf(out.Program, out.Result.Witness)
	var cut []schedtest.Cut
	for _, c := range sch.Cut {
		cut = append(cut, schedtest.Cut{Thread: c.Thread, Through: c.Through})
	}
	var segs []schedtest.Segment
	for _, sg := range sch.Segments {
		segs = append(segs, schedtest.Segment{Thread: sg.Thread, From: sg.From, To: sg.To})
	}
	require.Equal(t, want.String(), schedtest.Run(t, src, cut, segs, dropSync), "schedule %+v\ntrace:\n%s", sch, src)
}
