package atomicity

import (
	"testing"

	"github.com/conc-dev/conc/trace"
)

// benchGen is the monitor's benchmark workload (monitor's benchGen): 8
// threads, 10^4 variables, 16 locks, mostly lock-protected transactions.
var benchGen = trace.GenOptions{Seed: 1, Threads: 8, Vars: 10000, Locks: 16, TxnLen: 8,
	Unprotected: 0.05, Unary: 0.3, Nested: 0.1, Writes: 0.3, Hot: 8}

// BenchmarkTracker: events per second of the tracker alone (events in
// memory, 10^6 of them stepped ten times over with shifted lines: one
// 10^7-event trace), with lock edges.
func BenchmarkTracker(b *testing.B) {
	o := benchGen
	o.Events = 1_000_000
	g := trace.NewGen(o)
	var evs []trace.Event
	buf := make([]trace.Event, 4096)
	for n, _ := g.Read(buf); n > 0; n, _ = g.Read(buf) {
		evs = append(evs, buf[:n]...)
	}
	const copies = 10
	b.ResetTimer()
	for b.Loop() {
		k := New(Options{LockEdges: true, MaxBroken: 1})
		shift := int64(0)
		for range copies {
			for i := range evs {
				evs[i].Line += shift
			}
			k.StepAll(evs)
			shift = int64(len(evs))
		}
		k.Finish()
	}
	b.ReportMetric(float64(copies*len(evs))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
