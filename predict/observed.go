package predict

import (
	"fmt"
	"io"

	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/trace"
)

// The observed order is itself one reordering of the projections: it
// respects locks, fork and join by construction. So when the trace as
// observed stops being serializable (the monitor of Lemma 1 says where), its
// prefix up to that line is a witness, found in one pass and without the
// product search. The monitor reports the transaction X that closed the
// cycle and, for every other transaction on it, the events where the cycle
// enters and leaves it; the events of X that leave and re-enter are found
// here, and the witness is checked by package verify before it is used.

// observedMaxCycle bounds the cycles the monitor spells out: describing a
// cycle through hundreds of thousands of transactions (lock edges on a long
// trace) costs gigabytes, and a longer cycle is left to the engine.
const observedMaxCycle = 4096

// observedViolation runs the monitor over the spool to its first violation.
func (p *predictor) observedViolation() (monitor.TraceViolation, int64, bool, error) {
	return p.observedViolationAlso(nil)
}

// observedViolationAlso is observedViolation that also shows every event
// to also, before the monitor, and stops when also says so (the lock-aware
// two-thread pattern's first pass shares the pass, pair_plan.go).
func (p *predictor) observedViolationAlso(also func(*trace.Event) bool) (monitor.TraceViolation, int64, bool, error) {
	m := monitor.NewTraceMonitor(monitor.TraceOptions{LockEdges: p.o.Check.LockEdges, MaxCycle: observedMaxCycle, MaxViolations: 64})
	r := p.sp.Reader()
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
		if n&4095 == 0 && p.ctx.Err() != nil {
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

// observed answers violation from the observed prefix, or reports false.
func (p *predictor) observed() (*Outcome, bool, error) {
	v, first, ok, err := p.observedViolation()
	if err != nil || !ok {
		return nil, false, err
	}
	return p.observedAnswer(v, first)
}

// observedAnswer is the witness of the monitor's violation v (first at
// line first), if it replays.
func (p *predictor) observedAnswer(v monitor.TraceViolation, first int64) (*Outcome, bool, error) {
	pl, ok, err := p.observedPlan(v, first)
	if err != nil || !ok {
		return nil, false, err
	}
	if pl, err = p.trimPlan(pl, first); err != nil {
		return nil, false, err
	}
	return p.checked(pl, fmt.Sprintf("the trace as observed is not serializable from line %d on", first))
}
