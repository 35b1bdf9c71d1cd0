package profile

import (
	"context"
	"fmt"
	"math/rand"
	"runtime"
	"testing"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/cputime"
	"github.com/conc-dev/conc/model"
)

// pfBigLine is a straight-line thread of about n events: transactions of
// 1-4 accesses whose variables pick draws. Edges share one allocation.
func pfBigLine(r *rand.Rand, n int, pick func(r *rand.Rand, multi bool) int32) *model.Automaton {
	var evs []model.Event
	for len(evs) < n {
		k := 1 + r.Intn(4)
		evs = append(evs, model.Event{Op: model.OpBegin, Target: -1})
		for ; k > 0; k-- {
			evs = append(evs, model.Event{Op: model.OpRead + model.Op(r.Intn(2)), Target: pick(r, k > 1)})
		}
		evs = append(evs, model.Event{Op: model.OpEnd, Target: -1})
	}
	flat := make([]model.Edge, len(evs))
	a := &model.Automaton{Out: make([][]model.Edge, len(evs)+1), InTxn: make([]bool, len(evs)+1)}
	for i, e := range evs {
		flat[i] = model.Edge{To: int32(i + 1), Ev: e}
		a.Out[i] = flat[i : i+1 : i+1]
	}
	return a
}

// pfBigProgram has k threads of n/k events over 16 variables. A serializable
// one (k = 1, 2, 4 or 8) lets a thread touch only its own 8/k variables
// inside transactions of several accesses, and x8..x15 only in unary ones.
func pfBigProgram(seed int64, k, n int, serializable bool) *model.Program {
	r := rand.New(rand.NewSource(seed))
	var autos []*model.Automaton
	for t := 0; t < k; t++ {
		pick := func(r *rand.Rand, multi bool) int32 {
			if priv := 8 / k; serializable && multi {
				return int32(priv*t + r.Intn(priv))
			}
			if serializable {
				return int32(8 + r.Intn(8))
			}
			return int32(r.Intn(16))
		}
		autos = append(autos, pfBigLine(r, n/k, pick))
	}
	return pfProg(16, autos...)
}

// benchProfile also reports the CPU time of the benchmark's own OS thread
// per decision (cpu-ms/op), which stays meaningful on a shared machine.
func benchProfile(b *testing.B, p *model.Program, want engines.Verdict) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	cpu0 := cputime.Thread()
	for b.Loop() {
		res, err := Check(context.Background(), p, engines.Options{})
		if err != nil || res.Verdict != want {
			b.Fatalf("verdict %v (want %v), err %v", res.Verdict, want, err)
		}
	}
	if cpu := cputime.Thread() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkProfileLinear decides 4-thread straight-line programs over 16
// variables of 10^6 and 10^7 events in total: the time should grow tenfold.
func BenchmarkProfileLinear(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		for _, ser := range []bool{false, true} {
			want := engines.Violation
			if ser {
				want = engines.Serializable
			}
			p := pfBigProgram(1, 4, n, ser)
			b.Run(fmt.Sprintf("events=%d/%v", n, want), func(b *testing.B) { benchProfile(b, p, want) })
		}
	}
}

// BenchmarkProfileEightThreads: 8 threads over 16 variables.
func BenchmarkProfileEightThreads(b *testing.B) {
	b.Run("random", func(b *testing.B) { benchProfile(b, pfBigProgram(2, 8, 80_000, false), engines.Violation) })
	b.Run("serializable", func(b *testing.B) { benchProfile(b, pfBigProgram(2, 8, 80_000, true), engines.Serializable) })
	// The chain search's hard case: seven distinct threads that each link
	// x_i to x_{i+1} for one i of their choice, and a thread that needs the
	// chain x0 -> … -> x14 (14 links): no violation, but every partial chain
	// of distinct threads is explored.
	b.Run("chains", func(b *testing.B) { benchProfile(b, pfChains(8), engines.Serializable) })
}

// pfChains is T0 = [w x0; w x14] and k-1 distinct threads that each may go
// [r x_i] [w x_{i+1}] for one i < 14 of their choice.
func pfChains(k int) *model.Program {
	autos := []*model.Automaton{pfLine("b w0 w14 e")}
	for t := 1; t < k; t++ {
		a := &model.Automaton{Out: [][]model.Edge{nil}, InTxn: []bool{false}}
		for i := 0; i < 14; i++ {
			q := int32(0)
			for _, tok := range []string{"b", fmt.Sprintf("r%d", i), "e", "b", fmt.Sprintf("w%d", i+1), "e"} {
				a.Out = append(a.Out, nil)
				a.InTxn = append(a.InTxn, tok != "e")
				to := int32(len(a.Out) - 1)
				a.Out[q] = append(a.Out[q], model.Edge{To: to, Ev: pfEvent(tok)})
				q = to
			}
		}
		a.Held = make([][]int32, len(a.Out))
		autos = append(autos, a)
	}
	return pfProg(16, autos...)
}

// BenchmarkProfileIdentical64: thread W[64], one automaton shared.
func BenchmarkProfileIdentical64(b *testing.B) {
	r := rand.New(rand.NewSource(3))
	w := pfBigLine(r, 10_000, func(r *rand.Rand, multi bool) int32 { return int32(r.Intn(16)) })
	autos := make([]*model.Automaton, 64)
	for i := range autos {
		autos[i] = w
	}
	b.Run("random", func(b *testing.B) { benchProfile(b, pfProg(16, autos...), engines.Violation) })
	ch := pfChains(2).Threads[1].Auto
	for i := range autos {
		autos[i] = ch
	}
	autos[0] = pfLine("b w0 w14 e") // 63 copies: enough for the 14 links
	b.Run("chains", func(b *testing.B) { benchProfile(b, pfProg(16, autos...), engines.Violation) })
}
