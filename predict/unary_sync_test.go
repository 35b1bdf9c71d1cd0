package predict

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/verify"
)

// lockEdgesOnly is not serializable only with lock edges: T1's transaction
// releases m, T2's bare acquire and release (unary transactions) come
// next, and T1 acquires m again inside the same transaction.
const lockEdgesOnly = `T1|acq(m)
T1|begin
T1|rel(m)
T2|acq(m)
T2|rel(m)
T1|acq(m)
T1|end
T1|rel(m)
`

// TestWitnessWrapsUnarySync: under lock edges predict's witness writes a
// lock event outside a transaction as its unary transaction begin, event,
// end at the event's line, whichever way it was found (the observed order
// under auto, the product search's witness expanded back under global and
// brute), and the STD witness leaves the wrappers out, as the trace does.
func TestWitnessWrapsUnarySync(t *testing.T) {
	full := projectionOf(t, lockEdgesOnly)
	for _, engine := range []string{"auto", "global", "brute"} {
		out := predictString(t, lockEdgesOnly, Options{Engine: engine, Check: engines.Options{LockEdges: true}})
		require.Equal(t, engines.Violation, out.Result.Verdict, engine)
		w := out.Result.Witness
		require.NoError(t, verify.Witness(full, w), engine)
		var t2 []string
		for _, s := range w.Run {
			if s.Thread == 1 {
				t2 = append(t2, s.Ev.Op.String()+" "+s.Ev.Pos.String())
			}
		}
		require.Equal(t, []string{"begin t.std:4", "acquire t.std:4", "end t.std:4",
			"begin t.std:5", "release t.std:5", "end t.std:5"}, t2, engine)

		var b strings.Builder
		require.NoError(t, WriteSTD(&b, out.Program, w))
		require.Contains(t, b.String(), "T2|acq(m)|4\nT2|rel(m)|5\n", engine)
		requireSTDRoundTrip(t, lockEdgesOnly, out, true)
	}
	out := predictString(t, lockEdgesOnly, Options{})
	require.Equal(t, engines.Serializable, out.Result.Verdict, "without lock edges")
	require.Equal(t, model.OpAcquire, full.Threads[1].Auto.Out[0][0].Ev.Op, "the projection keeps the event bare")
}

// TestForksFirstCountsEvents: a forked thread may not move before its fork
// (wherever the fork is in the trace); the check must not take the run's
// steps for projection edges, since under lock edges a bare acquire or
// release is three steps. T1 acquires and releases l (edges 0 and 1) and
// forks T2 (edge 2).
func TestForksFirstCountsEvents(t *testing.T) {
	s := &proj.Summary{Threads: []*proj.ThreadSum{{}, {}}, Forker: map[int32]proj.Ref{1: {Thread: 0, Edge: 2}}}
	step := func(th int32, op model.Op, target int32, line int64) model.Step {
		return model.Step{Thread: th, Ev: model.Event{Op: op, Target: target, Pos: model.Pos{File: "t.std", Line: line}}}
	}
	wrapped := func(th int32, op model.Op, target int32, line int64) []model.Step {
		return []model.Step{step(th, model.OpBegin, -1, line), step(th, op, target, line), step(th, model.OpEnd, -1, line)}
	}
	var run []model.Step
	run = append(run, wrapped(0, model.OpAcquire, 0, 1)...)
	run = append(run, wrapped(0, model.OpRelease, 0, 2)...)
	early := append(append([]model.Step(nil), run...), wrapped(1, model.OpAcquire, 0, 4)...)
	early = append(early, wrapped(0, model.OpFork, 1, 3)...)
	require.False(t, s.ForksFirst(&model.Witness{Run: early, LockEdges: true}), "T2 moves before T1 forks it")
	late := append(append([]model.Step(nil), run...), wrapped(0, model.OpFork, 1, 3)...)
	late = append(late, wrapped(1, model.OpAcquire, 0, 4)...)
	require.True(t, s.ForksFirst(&model.Witness{Run: late, LockEdges: true}))
}
