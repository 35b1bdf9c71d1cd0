package montest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/conc-dev/conc/trace"
)

// The random traces that the tests of monitor (the conflict graph) and of
// monitor/pass (the pass over a trace) both draw.

// GenRange is how the tests draw a random trace shape: each count is its
// least value plus rng.IntN of its span, Locks and Hot (when Hot > 0, else
// 0 and not drawn) rng.IntN of theirs, and the rates scaled uniform draws.
type GenRange struct {
	Events, Threads, Vars, TxnLen [2]int // least, span
	Locks, Hot                    int
	Unprotected, Nested           float64
}

// SmallGen is the small shape of the main cross-check.
var SmallGen = GenRange{Events: [2]int{4, 30}, Threads: [2]int{1, 4}, Vars: [2]int{1, 4}, TxnLen: [2]int{1, 4},
	Locks: 3, Unprotected: 0.6, Nested: 0.4}

// Draw draws the generator options of one trace of shape g.
func (g GenRange) Draw(rng *rand.Rand, seed uint64) trace.GenOptions {
	o := trace.GenOptions{
		Seed:        seed,
		Events:      int64(g.Events[0] + rng.IntN(g.Events[1])),
		Threads:     g.Threads[0] + rng.IntN(g.Threads[1]),
		Vars:        g.Vars[0] + rng.IntN(g.Vars[1]),
		Locks:       rng.IntN(g.Locks),
		TxnLen:      g.TxnLen[0] + rng.IntN(g.TxnLen[1]),
		Unprotected: rng.Float64() * g.Unprotected,
		Unary:       rng.Float64() * 0.5,
		Nested:      rng.Float64() * g.Nested,
		Writes:      0.2 + rng.Float64()*0.6,
	}
	if g.Hot > 0 {
		o.Hot = rng.IntN(g.Hot)
	}
	o.Fork = rng.IntN(2) == 0
	return o
}

// GenEvents is the trace the generator writes with o, as events.
func GenEvents(o trace.GenOptions) []trace.Event {
	g := trace.NewGen(o)
	var evs []trace.Event
	buf := make([]trace.Event, 64)
	for {
		n, _ := g.Read(buf)
		if n == 0 {
			return evs
		}
		evs = append(evs, buf[:n]...)
	}
}

// FmtTrace is evs in STD, each line after its number, for a failure's
// message.
func FmtTrace(evs []trace.Event) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%d: %s", e.Line, trace.AppendSTD(nil, e, trace.GenName))
	}
	return b.String()
}

// BenchGen is the synthetic workload of the benchmarks: 8 threads, 10^4
// variables, 16 locks, mostly lock-protected transactions with a few
// unprotected accesses (so violations keep appearing).
var BenchGen = trace.GenOptions{Seed: 1, Threads: 8, Vars: 10000, Locks: 16, TxnLen: 8,
	Unprotected: 0.05, Unary: 0.3, Nested: 0.1, Writes: 0.3, Hot: 8}
