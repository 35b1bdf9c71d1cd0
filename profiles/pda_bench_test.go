package profiles

import (
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"testing"
	"time"

	"github.com/conc-dev/conc/internal/cputime"
	"github.com/conc-dev/conc/model"
)

// procedural is a pushdown thread of about n states shaped like compiled
// code: procedures of about 40 states, each a chain of transactions of 1-3
// accesses over nvars variables, with an optional call of a random
// procedure between transactions (a push of a symbol of its own and a pop
// back to the return point, or an epsilon edge around them). Main is procedure
// 0; procedure p's first call is of p+1, so every procedure is reachable,
// and the calls make cycles, so the thread is recursive.
func procedural(r *rand.Rand, n, nvars int) *model.Automaton {
	const procSize = 40
	procs := max(1, n/procSize)
	a := &model.Automaton{}
	add := func(in bool) int32 {
		a.Out = append(a.Out, nil)
		a.InTxn = append(a.InTxn, in)
		return int32(len(a.Out) - 1)
	}
	edge := func(from, to int32, e model.Edge) {
		e.To = to
		a.Out[from] = append(a.Out[from], e)
	}
	entry := make([]int32, procs)
	for p := range entry {
		entry[p] = add(false)
	}
	type site struct{ ret int32 }
	calls := make([][]site, procs) // call sites of each callee
	exits := make([]int32, procs)
	for p := 0; p < procs; p++ {
		q, first := entry[p], true
		for size := 0; size < procSize; {
			q0 := add(true)
			edge(q, q0, model.Edge{Ev: model.Event{Op: model.OpBegin, Target: -1}})
			for k := 1 + r.Intn(3); k > 0; k-- {
				next := add(true)
				edge(q0, next, model.Edge{Ev: model.Event{Op: model.OpRead + model.Op(r.Intn(2)), Target: int32(r.Intn(nvars))}})
				q0 = next
				size++
			}
			q = add(false)
			edge(q0, q, model.Edge{Ev: model.Event{Op: model.OpEnd, Target: -1}})
			ret := add(false)
			callee := r.Intn(procs)
			if first {
				callee, first = (p+1)%procs, false // every procedure is reachable
			}
			calls[callee] = append(calls[callee], site{ret})
			// choose { skip } or { call }: every procedure can return.
			edge(q, ret, model.Edge{Ev: model.Event{Op: model.OpSkip, Target: -1}})
			edge(q, entry[callee], model.Edge{Ev: model.Event{Op: model.OpSkip, Target: -1}, Stack: model.StackPush, Sym: ret})
			q = ret
			size += 4
		}
		exits[p] = q
	}
	for p, sites := range calls {
		for _, s := range sites {
			edge(exits[p], s.ret, model.Edge{Ev: model.Event{Op: model.OpSkip, Target: -1}, Stack: model.StackPop, Sym: s.ret})
		}
	}
	a.Held = make([][]int32, len(a.Out))
	return a
}

// chain is the saturation's bad case, n states in a line where every state
// i both calls (pushes a, entering i+1) and returns (pops a, to i+1) and
// steps to i+1 plainly, accesses on the way. Every state is an entry that
// reaches every later one (n²/2 facts), and each call site returns through
// every later exit: about n³/6 applications of the call rule.
func chain(r *rand.Rand, n, nvars int) *model.Automaton {
	a := &model.Automaton{Out: make([][]model.Edge, n), InTxn: make([]bool, n), Held: make([][]int32, n)}
	for q := 1; q < n; q++ {
		a.InTxn[q] = true
	}
	a.Out[0] = []model.Edge{{To: 1, Ev: model.Event{Op: model.OpBegin, Target: -1}}}
	for q := 1; q+1 < n; q++ {
		acc := model.Event{Op: model.OpRead + model.Op(r.Intn(2)), Target: int32(r.Intn(nvars))}
		skip := model.Event{Op: model.OpSkip, Target: -1}
		a.Out[q] = []model.Edge{
			{To: int32(q + 1), Ev: acc},
			{To: int32(q + 1), Ev: skip, Stack: model.StackPush},
			{To: int32(q + 1), Ev: skip, Stack: model.StackPop},
		}
	}
	return a
}

func benchPushdown(b *testing.B, a *model.Automaton, nvars int) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ExtractPushdown(a, nvars); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(a.NumStates()), "states")
}

// BenchmarkPushdownProcedural: compiled-code-like threads of 10² to 10⁴
// states over 8 variables.
func BenchmarkPushdownProcedural(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		a := procedural(rand.New(rand.NewSource(1)), n, 8)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchPushdown(b, a, 8) })
	}
}

// BenchmarkPushdownChain: the cubic family, 50 to 400 states (10⁴ would
// take hours, as Lemma 4's bound says).
func BenchmarkPushdownChain(b *testing.B) {
	for _, n := range []int{50, 100, 200, 400} {
		a := chain(rand.New(rand.NewSource(1)), n, 8)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchPushdown(b, a, 8) })
	}
}

// BenchmarkPushdownExponent fits time ≈ c·n^k over the sizes of each family
// (least squares on log-log, in CPU time of the benchmark's thread, which
// other processes do not inflate) and reports k:
// about 1 for procedural threads, at most 3 for the chain.
func BenchmarkPushdownExponent(b *testing.B) {
	for b.Loop() {
		b.ReportMetric(fitExponent(b, procedural, []int{100, 300, 1000, 3000, 10000}), "k-procedural")
		b.ReportMetric(fitExponent(b, chain, []int{50, 100, 200, 400}), "k-chain")
	}
}

func fitExponent(b *testing.B, family func(*rand.Rand, int, int) *model.Automaton, sizes []int) float64 {
	runtime.LockOSThread() // threadCPU measures this thread
	defer runtime.UnlockOSThread()
	var xs, ys []float64
	for _, n := range sizes {
		a := family(rand.New(rand.NewSource(1)), n, 8)
		// CPU time is counted in scheduler ticks: repeat small inputs
		// until the total is well above one.
		runs, start := 0, cputime.Thread()
		for ; runs < 3 || cputime.Thread()-start < 200*time.Millisecond; runs++ {
			if _, err := ExtractPushdown(a, 8); err != nil {
				b.Fatal(err)
			}
		}
		per := (cputime.Thread() - start).Seconds() / float64(runs)
		xs = append(xs, math.Log(float64(a.NumStates())))
		ys = append(ys, math.Log(per))
	}
	return slope(xs, ys)
}

// slope is the least-squares slope of ys against xs.
func slope(xs, ys []float64) float64 {
	var mx, my float64
	for i := range xs {
		mx += xs[i] / float64(len(xs))
		my += ys[i] / float64(len(ys))
	}
	var num, den float64
	for i := range xs {
		num += (xs[i] - mx) * (ys[i] - my)
		den += (xs[i] - mx) * (xs[i] - mx)
	}
	return num / den
}

// TestBenchFamiliesArePushdown keeps the benchmark inputs honest: both are
// recursive, have profiles, and the small ones agree with the oracle.
func TestBenchFamiliesArePushdown(t *testing.T) {
	for name, a := range map[string]*model.Automaton{
		"procedural": procedural(rand.New(rand.NewSource(1)), 100, 2),
		"chain":      chain(rand.New(rand.NewSource(1)), 12, 2),
	} {
		if !a.Pushdown() || model.ClassOf(a) != model.Recursive {
			t.Fatalf("%s is not a pushdown system", name)
		}
		p, err := ExtractPushdown(a, 2)
		if err != nil || p.Count() == 0 {
			t.Fatalf("%s: %v, %d profiles", name, err, p.Count())
		}
		if o := pdaOracle(t, a, 2); !o.Single.Equal(p.Single) || o.Count() != p.Count() {
			t.Fatalf("%s: saturation and product search disagree", name)
		}
	}
}
