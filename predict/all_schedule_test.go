package predict

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/trace"
)

// scheduledRun rebuilds a schedule's run from the STD text it was read off,
// as docs/spec.md §5 states it (and independently of ScheduleOf): the
// trace's events (the lines conc reads as events, §3's normalisation) of
// the cut's threads up to their lines, in trace order, then each
// segment's thread's events in its range; under dropSync without lock,
// fork and join events. Each is written as --witness-out writes it:
// THREAD|OP|LINE, from the trace's line.
func scheduledRun(t *testing.T, src string, sch Schedule, dropSync bool) string {
	lines := strings.Split(src, "\n")
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	var evs []trace.Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if !(dropSync && ev.Op.IsSync()) {
			evs = append(evs, ev)
		}
	}
	var b strings.Builder
	take := func(keep func(thread string, n int64) bool) {
		for _, ev := range evs {
			f := strings.Split(lines[ev.Line-1], "|")
			if keep(f[0], ev.Line) {
				fmt.Fprintf(&b, "%s|%s|%d\n", f[0], f[1], ev.Line)
			}
		}
	}
	cut := map[string]int64{}
	for _, c := range sch.Cut {
		cut[c.Thread] = c.Through
	}
	take(func(th string, l int64) bool { return l <= cut[th] })
	for _, sg := range sch.Segments {
		take(func(th string, l int64) bool { return th == sg.Thread && sg.From <= l && l <= sg.To })
	}
	return b.String()
}

// requireScheduleExact: the witness's schedule rebuilds the run
// --witness-out writes, event by event.
func requireScheduleExact(t *testing.T, src string, out *Outcome, dropSync bool) {
	t.Helper()
	var want strings.Builder
	require.NoError(t, WriteSTD(&want, out.Program, out.Result.Witness))
	sch := ScheduleOf(out.Program, out.Result.Witness)
	require.Equal(t, want.String(), scheduledRun(t, src, sch, dropSync), "schedule %+v\ntrace:\n%s", sch, src)
}

// TestScheduleOfShapes: a run in observed order is one cut; a reordered
// run is a cut and then segments, one per block of a thread.
func TestScheduleOfShapes(t *testing.T) {
	src := "T0|begin\nT0|r(x)\nT1|w(x)\nT0|r(x)\nT0|end\n" // the observed order violates
	a := allString(t, src, Options{})
	out, err := a.Witness(0)
	require.NoError(t, err)
	require.NotNil(t, out)
	sch := ScheduleOf(out.Program, out.Result.Witness)
	require.Equal(t, []ScheduleCut{{"T0", 4}, {"T1", 3}}, sch.Cut)
	require.Empty(t, sch.Segments)
	requireScheduleExact(t, src, out, false)

	src = "T0|begin\nT0|r(x)\nT0|r(x)\nT0|end\nT1|w(x)\n" // T1's write moves between T0's reads
	a = allString(t, src, Options{})
	out, err = a.Witness(0)
	require.NoError(t, err)
	require.NotNil(t, out)
	sch = ScheduleOf(out.Program, out.Result.Witness)
	require.Equal(t, []ScheduleCut{{"T0", 2}, {"T1", 5}}, sch.Cut) // lines 1, 2, 5 increase
	require.Equal(t, []ScheduleSegment{{"T0", 3, 3}}, sch.Segments)
	requireScheduleExact(t, src, out, false)
}
