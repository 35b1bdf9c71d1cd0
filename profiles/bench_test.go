package profiles

import (
	"math/rand"
	"runtime"
	"testing"

	"github.com/conc-dev/conc/internal/cputime"
	"github.com/conc-dev/conc/model"
)

// bigLine is a straight-line automaton of about n events over nvars
// variables: transactions of 1-4 accesses. Edges share one allocation.
func bigLine(r *rand.Rand, n, nvars int) *model.Automaton {
	var evs []model.Event
	for len(evs) < n {
		evs = append(evs, model.Event{Op: model.OpBegin, Target: -1})
		for k := 1 + r.Intn(4); k > 0; k-- {
			evs = append(evs, model.Event{Op: model.OpRead + model.Op(r.Intn(2)), Target: int32(r.Intn(nvars))})
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

// bigLoop is a regular automaton of about n edges: a chain of loop bodies,
// each a transaction that may be repeated or skipped.
func bigLoop(r *rand.Rand, n, nvars int) *model.Automaton {
	a := &model.Automaton{}
	add := func(in bool) int32 {
		a.Out = append(a.Out, nil)
		a.InTxn = append(a.InTxn, in)
		return int32(len(a.Out) - 1)
	}
	head := add(false)
	for edges := 0; edges < n; {
		q := add(true)
		a.Out[head] = append(a.Out[head], model.Edge{To: q, Ev: model.Event{Op: model.OpBegin, Target: -1}})
		for k := 1 + r.Intn(3); k > 0; k-- {
			to := add(true)
			a.Out[q] = append(a.Out[q], model.Edge{To: to, Ev: model.Event{Op: model.OpRead + model.Op(r.Intn(2)), Target: int32(r.Intn(nvars))}})
			q = to
			edges++
		}
		next := add(false)
		a.Out[q] = append(a.Out[q], model.Edge{To: head, Ev: model.Event{Op: model.OpEnd, Target: -1}},
			model.Edge{To: next, Ev: model.Event{Op: model.OpEnd, Target: -1}})
		a.Out[head] = append(a.Out[head], model.Edge{To: next, Ev: model.Event{Op: model.OpSkip, Target: -1}})
		head = next
		edges += 4
	}
	a.Held = make([][]int32, len(a.Out))
	return a
}

// benchExtract reports events per second of wall time and of the
// benchmark goroutine's own CPU time (RUSAGE_THREAD on a locked thread),
// which stays meaningful when other processes share the machine.
func benchExtract(b *testing.B, a *model.Automaton, nvars int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	cpu0 := cputime.Thread()
	for b.Loop() {
		if _, err := Extract(a, nvars); err != nil {
			b.Fatal(err)
		}
	}
	events := float64(a.NumEdges()) * float64(b.N)
	b.ReportMetric(events/b.Elapsed().Seconds()/1e6, "Mevents/s")
	if cpu := cputime.Thread() - cpu0; cpu > 0 {
		b.ReportMetric(events/cpu.Seconds()/1e6, "Mevents/cpu-s")
	}
}

// BenchmarkExtractStraightLine: 10^6 events over 16 variables.
func BenchmarkExtractStraightLine(b *testing.B) {
	benchExtract(b, bigLine(rand.New(rand.NewSource(1)), 1_000_000, 16), 16)
}

// BenchmarkExtractStraightLineWide: 10^6 events over 100 variables (4 words).
func BenchmarkExtractStraightLineWide(b *testing.B) {
	benchExtract(b, bigLine(rand.New(rand.NewSource(1)), 1_000_000, 100), 100)
}

// BenchmarkExtractRegular: a chain of 10^6 edges of optional loops.
func BenchmarkExtractRegular(b *testing.B) {
	benchExtract(b, bigLoop(rand.New(rand.NewSource(1)), 1_000_000, 16), 16)
}
