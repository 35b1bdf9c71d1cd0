package view

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/conc-dev/conc/gen"
)

// benchTrace is a trace of n transactions over 4 threads and 8
// variables, shaped (reads, then writes) and interleaved at random: the
// polygraph's stages all run on it.
func benchTrace(n int) string {
	rng := rand.New(rand.NewPCG(7, 29))
	return genShaped(rng, 4, 8, n)
}

// blindTrace is n rounds of a blind write, T1's transaction
// writing x_i around T2's write of it: view-serializable (T2's writes
// first), not conflict-serializable.
func blindTrace(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "T1|begin\nT1|w(x%d)\nT2|w(x%d)\nT2|r(y)\nT1|w(x%d)\nT1|w(y)\nT1|end\n", i, i, i)
	}
	return b.String()
}

// BenchmarkCheck: reading and deciding traces of growing size: random
// ones (a violation the arcs show) and blind writes (serializable, not
// conflict-serializable).
func BenchmarkCheck(b *testing.B) {
	for _, c := range []struct {
		name string
		gen  func(int) string
	}{{"random", benchTrace}, {"blind", blindTrace}} {
		for _, n := range []int{100, 1000, 10000} {
			benchOne(b, fmt.Sprintf("%s/txns=%d", c.name, n), c.gen(n))
		}
	}
	// The search: conc gen view-np's traces of random formulas at four
	// clauses a variable (docs/complexity.md).
	for _, clauses := range []int{32, 64, 128} {
		f := gen.RandomCNF(rand.New(rand.NewPCG(1, uint64(clauses))), clauses/4, clauses)
		benchOne(b, fmt.Sprintf("view-np/clauses=%d", clauses), gen.ViewNP(f))
	}
}

func benchOne(b *testing.B, name, text string) {
	{
		b.Run(name, func(b *testing.B) {
			var res Result
			for b.Loop() {
				res, _ = Check(context.Background(), reader(b, text), Options{})
			}
			b.ReportMetric(float64(res.Stats.States), "states")
			b.ReportMetric(float64(strings.Count(text, "\n")), "events")
		})
	}
}
