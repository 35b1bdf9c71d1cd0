package all

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/testkit/schedtest"
)

// scheduledRun rebuilds a schedule's run from the STD text it was read off
// (testkit/schedtest, as docs/spec.md §5 states it).
func scheduledRun(t *testing.T, src string, sch Schedule, dropSync bool) string {
	var cut []schedtest.Cut
	for _, c := range sch.Cut {
		cut = append(cut, schedtest.Cut{Thread: c.Thread, Through: c.Through})
	}
	var segs []schedtest.Segment
	for _, sg := range sch.Segments {
		segs = append(segs, schedtest.Segment{Thread: sg.Thread, From: sg.From, To: sg.To})
	}
	return schedtest.Run(t, src, cut, segs, dropSync)
}

// requireScheduleExact: the witness's schedule rebuilds the run
// --witness-out writes, event by event.
func requireScheduleExact(t *testing.T, src string, out *predict.Outcome, dropSync bool) {
	t.Helper()
	var want strings.Builder
	require.NoError(t, predict.WriteSTD(&want, out.Program, out.Result.Witness))
	sch := ScheduleOf(out.Program, out.Result.Witness)
	require.Equal(t, want.String(), scheduledRun(t, src, sch, dropSync), "schedule %+v\ntrace:\n%s", sch, src)
}

// TestScheduleOfShapes: a run in observed order is one cut; a reordered
// run is a cut and then segments, one per block of a thread.
func TestScheduleOfShapes(t *testing.T) {
	src := "T0|begin\nT0|r(x)\nT1|w(x)\nT0|r(x)\nT0|end\n" // the observed order violates
	a := allString(t, src, predict.Options{})
	out, err := a.Witness(0)
	require.NoError(t, err)
	require.NotNil(t, out)
	sch := ScheduleOf(out.Program, out.Result.Witness)
	require.Equal(t, []ScheduleCut{{Thread: "T0", Through: 4}, {Thread: "T1", Through: 3}}, sch.Cut)
	require.Empty(t, sch.Segments)
	requireScheduleExact(t, src, out, false)

	src = "T0|begin\nT0|r(x)\nT0|r(x)\nT0|end\nT1|w(x)\n" // T1's write moves between T0's reads
	a = allString(t, src, predict.Options{})
	out, err = a.Witness(0)
	require.NoError(t, err)
	require.NotNil(t, out)
	sch = ScheduleOf(out.Program, out.Result.Witness)
	require.Equal(t, []ScheduleCut{{Thread: "T0", Through: 2}, {Thread: "T1", Through: 5}}, sch.Cut) // lines 1, 2, 5 increase
	require.Equal(t, []ScheduleSegment{{Thread: "T0", From: 3, To: 3}}, sch.Segments)
	requireScheduleExact(t, src, out, false)
}
