package projtest

import (
	"fmt"
	"math/rand/v2"
)

// PairShape is a random trace for the two-thread finders: 2 to 5 threads,
// 1 to 4 variables, critical sections nested two deep around several
// accesses (or, when nested is false, sometimes released out of order),
// unary and nested transactions, fork and join.
type PairShape struct {
	Threads, Vars, Locks, Items int
	Fork, Nested                bool
}

// RandomPairShape draws a PairShape.
func RandomPairShape(r *rand.Rand) PairShape {
	th := 2 + r.IntN(4)
	return PairShape{Threads: th, Vars: 1 + r.IntN(4), Locks: r.IntN(4), Items: 1 + r.IntN(max(1, 5-th)),
		Fork: r.IntN(3) == 0, Nested: r.IntN(4) != 0}
}

// body is a run of accesses and critical sections nested from depth.
func (s PairShape) body(r *rand.Rand, depth int) []Step {
	var b []Step
	for n := 1 + r.IntN(3); n > 0; n-- {
		switch {
		case s.Locks > 0 && depth < 2 && r.IntN(3) == 0:
			l := fmt.Sprintf("m%d", r.IntN(s.Locks))
			inner := s.body(r, depth+1)
			if !s.Nested && len(inner) > 1 && inner[0].Op == "acq" && r.IntN(2) == 0 {
				// acq l; acq k; … rel k → acq l; acq k; … rel l … rel k
				b = append(b, Step{Op: "acq", Target: l})
				b = append(b, inner[:len(inner)-1]...)
				b = append(b, Step{Op: "rel", Target: l}, inner[len(inner)-1])
				continue
			}
			b = append(b, Step{Op: "acq", Target: l})
			b = append(b, inner...)
			b = append(b, Step{Op: "rel", Target: l})
		case r.IntN(6) == 0 && depth == 0:
			b = append(b, Step{Op: "begin"}, Step{Op: "r", Target: fmt.Sprintf("x%d", r.IntN(s.Vars))}, Step{Op: "end"})
		default:
			op := "r"
			if r.IntN(2) == 0 {
				op = "w"
			}
			b = append(b, Step{Op: op, Target: fmt.Sprintf("x%d", r.IntN(s.Vars))})
		}
	}
	return b
}

// Trace is an STD trace of the shape.
func (s PairShape) Trace(r *rand.Rand) string {
	scripts := make([][]Step, s.Threads)
	for t := range scripts {
		for n := 0; n < s.Items; n++ {
			if r.IntN(3) == 0 {
				scripts[t] = append(scripts[t], s.body(r, 0)...)
				continue
			}
			scripts[t] = append(scripts[t], Step{Op: "begin"})
			scripts[t] = append(scripts[t], s.body(r, 0)...)
			scripts[t] = append(scripts[t], Step{Op: "end"})
		}
	}
	if s.Fork {
		out := scripts[0]
		for u := s.Threads - 1; u >= 1; u-- {
			at := r.IntN(len(out) + 1)
			out = append(out[:at], append([]Step{{Op: "fork", Target: fmt.Sprintf("T%d", u)}}, out[at:]...)...)
		}
		for u := 1; u < s.Threads; u++ {
			if r.IntN(2) == 0 {
				out = append(out, Step{Op: "join", Target: fmt.Sprintf("T%d", u)})
			}
		}
		scripts[0] = out
	}
	return Schedule(r, scripts, s.Fork)
}
