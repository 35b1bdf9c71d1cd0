package predict

import (
	"github.com/conc-dev/conc/predict/internal/nested"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// Step 5c, the linear two-thread decision under nested locking
// (internal/nested): the cascade's and --all's calls into it, with the
// predictor's projection, deadline, limit and verification.

// nestedResult is what the linear decision concludes without a violation.
type nestedResult struct {
	proved    bool   // no run has a cycle on one variable through two threads
	notNested string // why it did not apply ("": it did)
}

// nestLimit is the first pass's limit (Options.Tuning.MaxNest).
func (p *predictor) nestLimit() int64 {
	if p.o.Tuning.MaxNest > 0 {
		return p.o.Tuning.MaxNest
	}
	return nested.MaxSize
}

// nestedPairs runs the linear two-thread decision: a verified violation, or
// what it proved.
func (p *predictor) nestedPairs() (*Outcome, nestedResult, error) {
	if !p.denseClocks() {
		return nil, nestedResult{}, nil // undecided
	}
	var out *Outcome
	r, err := nested.Decide(p.s, p.sp, p.nestLimit(), func() bool { return p.ctx.Err() != nil }, func(f nested.Find) (ok bool, err error) {
		out, ok, err = p.answerNested(f)
		return ok, err
	})
	if out != nil || err != nil {
		return out, nestedResult{}, err
	}
	return nil, nestedResult{proved: r.Proved, notNested: r.NotNested}, nil
}

// answerNested is the verified witness of a pattern, or false.
func (p *predictor) answerNested(f nested.Find) (*Outcome, bool, error) {
	pl, ok, err := p.nestPlan(f)
	if err != nil || !ok {
		return nil, false, err
	}
	return p.checked(pl, nestedWhy(p, f))
}

// nestPlan is the run of a pattern, or false when none is found. Its
// context starts as the two-thread patterns' does.
func (p *predictor) nestPlan(f nested.Find) (proj.Plan, bool, error) {
	return nested.Plan(p.s, p.sp, f, func(ctx []int64, t1, t2 int) ([]proj.Segment, error) {
		if err := p.freeContext(ctx, t1, t2); err != nil {
			return nil, err
		}
		return p.contextSegments(ctx)
	})
}

// nestedWhy is the reason of a pattern's answer.
func nestedWhy(p *predictor, f nested.Find) string { return nested.Why(p.s, f) }
