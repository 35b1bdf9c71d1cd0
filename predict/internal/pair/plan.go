package pair

import (
	"fmt"
	"slices"

	"github.com/conc-dev/conc/predict/internal/proj"
)

// HBNote starts the reason of the happens-before pattern's answer.
const HBNote = "two-thread reordering of the observed order"

// LockedNote starts the reason of the lock-aware pattern's answer.
const LockedNote = "two threads through their locks"

// HBWhy is the reason of a happens-before pattern's answer.
func HBWhy(s *proj.Summary, f HBFind) string {
	return fmt.Sprintf("%s (thread %s's transaction interrupted by thread %s, line %d moved after line %d)",
		HBNote, s.ThreadNames[f.T1], s.ThreadNames[f.T2], f.LineE2, f.LineF2)
}

// LockedWhy is the reason of a lock-aware pattern's answer.
func LockedWhy(s *proj.Summary, f LockFind) string {
	return fmt.Sprintf("%s (thread %s's access at line %d moved between thread %s's accesses of its variable, before line %d)",
		LockedNote, s.ThreadNames[f.T2], f.LineF, s.ThreadNames[f.T1], f.LineE2)
}

// HBCut is, per thread, how many edges of its projection happen before
// some event of the cycle, over the observed prefix up to line first;
// false if some cycle event is not in it. It is predict's trim of the
// observed witness, which a happens-before pattern's run shares.
type HBCut func(cycle [][2]proj.Ref, first int64) ([]int64, bool, error)

// PlanHB is the run of hb.go: the observed order cut to what happens
// before f2 or before e2, then e2; false when the cut does not hold the
// pattern as found.
func PlanHB(f HBFind, cut HBCut) (proj.Plan, bool, error) {
	e1, e2 := proj.Ref{Thread: f.T1, Edge: f.E1}, proj.Ref{Thread: f.T1, Edge: f.E2}
	f1, f2 := proj.Ref{Thread: f.T2, Edge: f.F1}, proj.Ref{Thread: f.T2, Edge: f.F2}
	cycle := [][2]proj.Ref{{e1, f1}}
	if !f.SameF {
		cycle = append(cycle, [2]proj.Ref{f1, f2}) // program order within T2
	}
	cycle = append(cycle, [2]proj.Ref{f2, e2})
	need, ok, err := cut([][2]proj.Ref{{{Thread: f.T1, Edge: f.E2 - 1}, f2}}, f.LineF2)
	if err != nil || !ok || need[f.T1] > f.E2 || need[f.T2] <= f.F2 {
		return proj.Plan{}, false, err
	}
	return proj.Plan{Cycle: cycle, Observed: &proj.ObservedCut{Cut: need, Tail: &e2}}, true, nil
}

// PlanLocked is lock.go's run as segments: the context C (freed of other
// threads' critical sections, context.go) in its observed order, T2 to y0,
// T1 to just before e2, T2 through f, T1's e2; or, with the second
// schedule, T2 to y0, T1 to p1, T2 to z, T1 through e2.
func PlanLocked(s *proj.Summary, sp *proj.Spool, f LockFind) (proj.Plan, error) {
	f.Ctx = slices.Clone(f.Ctx)
	if err := FreeContext(s, sp, f.Ctx, f.T1, f.T2); err != nil {
		return proj.Plan{}, err
	}
	segs, err := s.PrefixSegments(sp, f.Ctx)
	if err != nil {
		return proj.Plan{}, err
	}
	if f.P1 > 0 { // T1 waits at its lock-free point p1, T2 runs on to z
		segs = append(segs, proj.Segment{Thread: f.T2, Upto: f.Y0 - 1}, proj.Segment{Thread: f.T1, Upto: f.P1 - 1}, proj.Segment{Thread: f.T2, Upto: f.Z - 1}, proj.Segment{Thread: f.T1, Upto: f.E2})
	} else {
		segs = append(segs, proj.Segment{Thread: f.T2, Upto: f.Y0 - 1}, proj.Segment{Thread: f.T1, Upto: f.E2 - 1}, proj.Segment{Thread: f.T2, Upto: f.F}, proj.Segment{Thread: f.T1, Upto: f.E2})
	}
	e1, e2, a := proj.Ref{Thread: f.T1, Edge: f.E1}, proj.Ref{Thread: f.T1, Edge: f.E2}, proj.Ref{Thread: f.T2, Edge: f.F}
	return proj.Plan{Segs: segs, Cycle: [][2]proj.Ref{{e1, a}, {a, e2}}}, nil
}
