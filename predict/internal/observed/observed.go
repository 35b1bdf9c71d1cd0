// Package observed is predict's finder in the observed order (docs/predict.md,
// step 4). The observed order is itself one reordering of the projections:
// it respects locks, fork and join by construction. So when the trace as
// observed stops being serializable (the monitor of Lemma 1 says where), its
// prefix up to that line is a witness, found in one pass and without the
// product search. The monitor reports the transaction X that closed the
// cycle and, for every other transaction on it, the events where the cycle
// enters and leaves it (Find); the events of X that leave and re-enter are
// found here (Plan), and the prefix is cut to what happens before the cycle
// (Trim). predict checks the witness with package verify before it uses it.
//
// It imports nothing of predict but the projection layer and its
// happens-before clocks (predict/internal/hb).
package observed

import (
	"context"
	"io"

	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// Input is what the finder reads: the first pass's summary and spool, and
// whether lock, fork and join events conflict (--lock-edges).
type Input struct {
	Summary   *proj.Summary
	Spool     *proj.Spool
	LockEdges bool
}

// maxCycle bounds the cycles the monitor spells out: describing a cycle
// through hundreds of thousands of transactions (lock edges on a long trace)
// costs gigabytes, and a longer cycle is left to the other finders.
const maxCycle = 4096

// Find runs the monitor over the spool to its first violation: the cycle
// and the line it was found at. With also, every event is shown to also
// before the monitor, and the pass stops when also says so (another finder
// sharing the pass found its answer). It reports false when the trace is
// serializable as observed, the cycle is too long to spell out, also
// stopped it, or ctx was cancelled.
func Find(ctx context.Context, in Input, also func(*trace.Event) bool) (monitor.TraceViolation, int64, bool, error) {
	m := monitor.NewTraceMonitor(monitor.TraceOptions{LockEdges: in.LockEdges, MaxCycle: maxCycle, MaxViolations: 64})
	r := in.Spool.Reader()
	var ev trace.Event
	for n := 1; m.First() == 0; n++ {
		if err := r.Next(&ev); err == io.EOF {
			return monitor.TraceViolation{}, 0, false, nil
		} else if err != nil {
			return monitor.TraceViolation{}, 0, false, err
		}
		if also != nil && also(&ev) {
			return monitor.TraceViolation{}, 0, false, nil
		}
		m.Step(ev)
		if n&4095 == 0 && ctx.Err() != nil {
			return monitor.TraceViolation{}, 0, false, nil
		}
	}
	first := m.First()
	for _, v := range m.Finish().Violations {
		if v.Elided == 0 && len(v.Cycle) > 0 {
			return v, first, true, nil
		}
	}
	return monitor.TraceViolation{}, 0, false, nil
}
