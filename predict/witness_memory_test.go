package predict

import (
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/report"
)

// lockPassing is a trace in which T1 and T2 pass lock m back and forth n
// times, each writing a private variable under it, and then end in last.
func lockPassing(n int, last string) string {
	var b strings.Builder
	for range n {
		b.WriteString("T1|acq(m)\nT1|w(a)\nT1|rel(m)\nT2|acq(m)\nT2|w(b)\nT2|rel(m)\n")
	}
	return b.String() + last
}

// witnessAllocs predicts src, writes the witness as STD and renders it as
// text and JSON, as conc predict does; it returns the bytes allocated and
// the witness's length.
func witnessAllocs(t *testing.T, src string) (uint64, int) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out := predictString(t, src, Options{TempDir: t.TempDir()})
	n := 0
	if w := out.Result.Witness; w != nil {
		n = len(w.Run)
		require.NoError(t, WriteSTD(io.Discard, out.Program, w))
		rep, err := report.BuildLean(out.Program, out.Result)
		require.NoError(t, err)
		require.NoError(t, report.WriteText(io.Discard, rep, report.TextOptions{}))
		require.NoError(t, report.WriteJSON(io.Discard, rep))
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, n
}

// TestWitnessBytesPerEvent pins what a long witness costs, so that it does
// not creep back to copies of the run (prefix automata, spelled-out report
// events, an in-memory JSON encoding: hundreds of bytes an event). Every
// event of the lock-passing trace happens before its cycle, so the witness
// is the whole trace; the bytes allocated beyond those for the same trace
// made serializable, per witness event, stay within a small bound (about
// 49 are the run's model.Step, 48 bytes, and its share of the moves).
func TestWitnessBytesPerEvent(t *testing.T) {
	const reps = 17_000 // a witness of about 10^5 events
	race := "T1|begin\nT1|r(x)\nT2|w(x)\nT1|w(x)\nT1|end\n"
	safe := "T1|begin\nT1|r(x)\nT2|w(y)\nT1|w(x)\nT1|end\n"
	bytes, n := witnessAllocs(t, lockPassing(reps, race))
	base, none := witnessAllocs(t, lockPassing(reps, safe))
	require.Zero(t, none, "the serializable trace has no witness")
	require.Greater(t, n, 6*reps, "the witness is the whole trace")
	perEvent := float64(bytes-min(base, bytes)) / float64(n)
	t.Logf("witness of %d events: %d bytes allocated, %d for the serializable trace: %.1f bytes an event", n, bytes, base, perEvent)
	require.Less(t, perEvent, 100.0)
}
