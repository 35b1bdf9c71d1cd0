package predict

import (
	"fmt"

	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/predict/internal/observed"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// Step 4, the observed order (package predict/internal/observed): when the
// trace as observed is not serializable, its prefix up to the monitor's
// first violation, trimmed to what happens before the cycle, is a witness.

// observedInput is what the observed-order finder reads.
func (p *predictor) observedInput() observed.Input {
	return observed.Input{Summary: p.s, Spool: p.sp, LockEdges: p.o.Check.LockEdges}
}

// observedViolation runs the monitor over the spool to its first violation.
func (p *predictor) observedViolation() (monitor.TraceViolation, int64, bool, error) {
	return p.observedViolationAlso(nil)
}

// observedViolationAlso is observedViolation that also shows every event
// to also, before the monitor, and stops when also says so (the lock-aware
// two-thread pattern's first pass shares the pass, pair_plan.go).
func (p *predictor) observedViolationAlso(also func(*trace.Event) bool) (monitor.TraceViolation, int64, bool, error) {
	return observed.Find(p.ctx, p.observedInput(), also)
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
	why := fmt.Sprintf("the trace as observed is not serializable from line %d on", first)
	trimmed, err := p.trimPlan(pl, first)
	if err != nil {
		return nil, false, err
	}
	out, ok, err := p.checked(trimmed, why)
	if ok || err != nil || trimmed.Observed == pl.Observed {
		return out, ok, err
	}
	// The trim keeps what happens before the cycle by locks, fork and join
	// only, and may leave out a post or give a kept wait or take needs
	// (docs/spec.md §3): the whole observed prefix keeps every ordering.
	return p.checked(pl, why)
}

// observedPlan is the observed prefix up to line first with v's cycle.
func (p *predictor) observedPlan(v monitor.TraceViolation, first int64) (proj.Plan, bool, error) {
	return observed.Plan(p.observedInput(), v, first)
}

// trimPlan cuts pl (the observed prefix up to line first) to the events
// that happen before an event of its cycle, when the trace has few enough
// threads for dense vector clocks.
func (p *predictor) trimPlan(pl proj.Plan, first int64) (proj.Plan, error) {
	if !p.denseClocks() {
		return pl, nil // the whole prefix is a run too
	}
	return observed.Trim(p.observedInput(), pl, first)
}
