package report

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
)

// WriteJSON streams a monitor report's violations; the bytes must be
// exactly encoding/json's, on reports with and without the optional
// members, ends, elisions and names that need escaping.
func TestJSONViolationsMatchEncoder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	name := func() string { return awkward[rng.IntN(len(awkward))] }
	for i := range 500 {
		r := &Report{Verdict: "violation", Engine: "monitor", Class: "straight-line",
			Threads: rng.IntN(9), Vars: rng.IntN(99), Locks: rng.IntN(3), First: rng.IntN(2) * rng.IntN(1000),
			Stats: engines.Stats{States: rng.Int64N(1000), Events: rng.Int64N(1e6), Millis: rng.Int64N(50)}}
		if rng.IntN(4) == 0 {
			r.Reason = "timeout: " + name()
		}
		for range rng.IntN(6) {
			v := Violation{Thread: name(), Begin: rng.IntN(1000), Cycle: []TraceStep{}}
			if rng.IntN(3) > 0 {
				end := v.Begin + rng.IntN(50)
				v.End = &end
			}
			for range rng.IntN(5) {
				v.Cycle = append(v.Cycle, TraceStep{Thread: name(), Line: rng.IntN(1000)})
			}
			if rng.IntN(4) == 0 {
				v.Elided, v.ElidedAt = 1+rng.IntN(9), rng.IntN(len(v.Cycle)+1)
			}
			r.Violations = append(r.Violations, v)
		}
		var want, got bytes.Buffer
		require.NoError(t, encodeJSON(&want, r))
		require.NoError(t, WriteJSON(&got, r))
		require.Equal(t, want.String(), got.String(), "report %d", i)
	}
}
