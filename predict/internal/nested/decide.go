package nested

import (
	"fmt"

	"github.com/conc-dev/conc/predict/internal/proj"
)

// Result is what the decision concludes without a violation.
type Result struct {
	Proved    bool   // no run has a cycle on one variable through two threads
	NotNested string // why it did not apply ("": it did)
}

// Decide runs both passes: a pattern's run is handed to try, which reports
// whether it answered (a verified witness) or failed; else what the passes
// proved. A pattern whose run try refuses is tried no further; up to eight
// are tried, the first from a second pass that stops at it, then the
// others from one that stops at the eighth. limit bounds the first pass
// (MaxSize by default), stop is the deadline.
func Decide(s *proj.Summary, sp *proj.Spool, limit int64, stop func() bool, try func(Find) (bool, error)) (Result, error) {
	nx, ok, err := Index(s, sp, limit, stop)
	if err != nil || !ok {
		return Result{}, err
	}
	if nx.bad != "" {
		return Result{NotNested: nx.bad}, nil
	}
	tried := 0
	for _, want := range []int{1, 8} {
		var finds []Find
		whole, err := Meet(s, sp, nx, stop, func(f Find) bool {
			finds = append(finds, f)
			return len(finds) < want
		})
		switch {
		case err != nil:
			return Result{}, err
		case len(finds) == 0:
			return Result{Proved: whole}, nil
		}
		for _, f := range finds[min(tried, len(finds)):] {
			if ok, err := try(f); err != nil || ok {
				return Result{}, err
			}
		}
		tried = len(finds)
	}
	return Result{}, nil
}

// Why is the reason of a pattern's answer.
func Why(s *proj.Summary, f Find) string {
	return fmt.Sprintf("%s (thread %s's access at line %d moved between thread %s's accesses at lines %d and %d)",
		Note, s.ThreadNames[f.T2], f.lineF, s.ThreadNames[f.T1], f.lineE1, f.lineE2)
}

// Note starts the reason of the decision's answer.
const Note = "two threads and one variable, decided in linear time under nested locking"
