package predict

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// gateTrace: T2's write can fall between T1's read and write. Projection
// edges: T1 begin(0) r(1) w(2) end(3); T2 begin(0) w(1) end(2).
const gateTrace = `T1|begin
T1|r(x)
T1|w(x)
T1|end
T2|w(x)
`

// TestEngineWitnessGate: an engine's plan whose run does not have its cycle
// is a WitnessError naming the engine, never a violation; the right plan
// for the same cycle is one.
func TestEngineWitnessGate(t *testing.T) {
	cycle := [][2]proj.Ref{{{Thread: 0, Edge: 1}, {Thread: 1, Edge: 1}}, {{Thread: 1, Edge: 1}, {Thread: 0, Edge: 2}}}
	good := proj.Plan{Segs: []proj.Segment{{Thread: 0, Upto: 1}, {Thread: 1, Upto: 2}, {Thread: 0, Upto: 3}}, Cycle: cycle}
	bad := proj.Plan{Segs: []proj.Segment{{Thread: 0, Upto: 3}, {Thread: 1, Upto: 2}}, Cycle: cycle} // T2 after T1: no cycle
	for _, o := range []Options{{}, {Check: engines.Options{LockEdges: true}}} {
		p := newTestPredictor(t, gateTrace, o)
		out, err := p.violation(engines.Result{Engine: "profile"}, good)
		require.NoError(t, err)
		require.Equal(t, engines.Violation, out.Result.Verdict)

		_, err = p.violation(engines.Result{Engine: "profile"}, bad)
		var we *proj.WitnessError
		require.True(t, errors.As(err, &we), "%v", err)
		require.Equal(t, "profile", we.Engine)
		require.ErrorContains(t, err, "profile's witness does not replay: cycle pair 1")
	}
}

// TestIgnoreSyncForkReplays: with synchronisation dropped no thread waits
// for its fork, so the optimistic witness, whose run has no fork, replays.
func TestIgnoreSyncForkReplays(t *testing.T) {
	const forked = `T1|fork(T2)
T1|begin
T1|r(x)
T1|w(x)
T1|end
T2|w(x)
T1|join(T2)
`
	for _, engine := range []string{"auto", "global"} {
		out := predictString(t, forked, Options{Engine: engine, Check: engines.Options{IgnoreSync: true}})
		require.Equal(t, engines.Violation, out.Result.Verdict, engine)
	}
}
