package report

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
)

// TestJSONBlameMatchesEncoder: the streamed default monitor answer is
// byte for byte what encoding/json writes for the whole report, whatever
// of its groups, broken transactions and joint violation are present.
func TestJSONBlameMatchesEncoder(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 7))
	name := func() string { return awkward[rng.IntN(len(awkward))] }
	ev := func() PathEvent {
		return PathEvent{Thread: name(), Line: rng.IntN(1000), Op: "w", Target: name(), Loc: name()}
	}
	group := func() Group {
		end := rng.IntN(99)
		return Group{Signature: name(), Count: 1 + rng.IntN(9), First: rng.IntN(99), Cut: rng.IntN(3) == 0,
			Cycle: []CycleTxn{{Thread: name(), Begin: rng.IntN(99), End: &end, Events: []TraceEvent{{Line: 3, Op: "r", Target: name()}}, Stretch: rng.IntN(2) == 0}}}
	}
	for i := range 500 {
		n, on := rng.Int64N(5), rng.Int64N(9)
		r := &Report{Verdict: "violation", Engine: "monitor", Class: "straight-line", First: rng.IntN(1000),
			NonAtomic: &n, OnCycle: &on, Stats: engines.Stats{States: rng.Int64N(1000), Millis: rng.Int64N(50)}}
		for range rng.IntN(3) {
			r.NonAtomicGroups = append(r.NonAtomicGroups, group())
		}
		for range rng.IntN(4) {
			b := BrokenTxn{Thread: name(), Begin: rng.IntN(99), Group: 1, Cut: rng.IntN(4) == 0}
			for range 1 + rng.IntN(3) {
				b.Path = append(b.Path, PathHop{From: ev(), To: ev()})
			}
			r.NonAtomicTxns = append(r.NonAtomicTxns, b)
		}
		if rng.IntN(3) == 0 {
			r.Joint = []Group{group()}
		}
		var want, got bytes.Buffer
		require.NoError(t, encodeJSON(&want, r))
		require.NoError(t, WriteJSON(&got, r))
		require.Equal(t, want.String(), got.String(), "report %d", i)
	}
}
