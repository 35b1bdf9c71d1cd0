package predict

import "fmt"

// pairs answers violation with the two-thread reordering of pair_hb.go, or
// reports false (nothing found, or a witness verify refuses: never an
// answer).
func (p *predictor) pairs() (*Outcome, bool, error) {
	f, ok, err := p.s.findPair(p.sp, func() bool { return p.ctx.Err() != nil })
	if err != nil || !ok {
		return nil, false, err
	}
	pl, ok, err := p.pairPlan(f)
	if err != nil || !ok {
		return nil, false, err
	}
	why := fmt.Sprintf("%s (thread %s's transaction interrupted by thread %s, line %d moved after line %d)",
		pairNote, p.s.threadNames[f.t1], p.s.threadNames[f.t2], f.lineE2, f.lineF2)
	return p.checked(pl, why)
}

// pairNote starts the reason of the two-thread reordering's answer.
const pairNote = "two-thread reordering of the observed order"

// pairPlan is the run of pair_hb.go: the observed order cut to what
// happens before f2 or before e2, then e2.
func (p *predictor) pairPlan(f pairFind) (plan, bool, error) {
	e1, e2 := ref{f.t1, f.e1}, ref{f.t1, f.e2}
	f1, f2 := ref{f.t2, f.f1}, ref{f.t2, f.f2}
	cycle := [][2]ref{{e1, f1}}
	if !f.sameF {
		cycle = append(cycle, [2]ref{f1, f2}) // program order within T2
	}
	cycle = append(cycle, [2]ref{f2, e2})
	need, ok, err := p.hbCut([][2]ref{{{f.t1, f.e2 - 1}, f2}}, f.lineF2)
	if err != nil || !ok || need[f.t1] > f.e2 || need[f.t2] <= f.f2 {
		return plan{}, false, err
	}
	return plan{cycle: cycle, observed: &observedCut{cut: need, tail: &e2}}, true, nil
}
