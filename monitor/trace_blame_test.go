package monitor

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/monitor/atomicity"
	"github.com/conc-dev/conc/trace"
)

// TestLazyBlamerAgainstEager: the blamer, which starts its tracker only at
// the conflict graph's first cycle (or when its window is full), from the
// begin of the oldest transaction open then, gives the answer of a
// tracker that read the whole trace, broken transactions and their paths
// alike: on random traces of both shapes (the cross-check's, and a main
// transaction with workers), both semantics, in batches of random sizes,
// with a window that is never full and one that is full at once. The
// generator exercises both ways: lazy to the end, and a replay from a
// window whose front was dropped.
func TestLazyBlamerAgainstEager(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 31))
	lazy, dropped := 0, int64(0)
	for i := range testflag.N(600, 4000) {
		var evs []trace.Event
		if i%2 == 0 {
			evs = genEvents(smallGen.draw(rng, uint64(i)))
		} else {
			evs = mainWorkers(rng)
		}
		for _, lockEdges := range []bool{false, true} {
			opts := atomicity.Options{LockEdges: lockEdges}
			k := atomicity.New(opts)
			k.StepAll(append([]trace.Event(nil), evs...))
			want := k.Finish()
			for _, maxWindow := range []int{1 << 30, 3} {
				got, b := lazyBlame(rng, evs, opts, maxWindow)
				ctx := fmt.Sprintf("trace %d lockEdges=%v maxWindow %d\n%s", i, lockEdges, maxWindow, fmtTrace(evs))
				require.Equal(t, want, got, ctx)
				switch {
				case b.k == nil:
					lazy++
				case b.w.dropped > 0:
					dropped += b.w.dropped
				}
			}
		}
	}
	require.Positive(t, lazy, "no trace left the tracker idle")
	require.Positive(t, dropped, "no replay started past the trace's first event")
}

// lazyBlame runs a conflict-graph monitor and a blamer over evs in batches
// of random sizes, as CheckTrace does.
func lazyBlame(rng *rand.Rand, evs []trace.Event, opts atomicity.Options, maxWindow int) (atomicity.Result, *blamer) {
	m := NewTraceMonitor(TraceOptions{LockEdges: opts.LockEdges})
	b := newBlamer(opts)
	b.maxWindow = maxWindow
	for i := 0; i < len(evs); {
		n := min(len(evs)-i, 1+rng.IntN(6))
		batch := append([]trace.Event(nil), evs[i:i+n]...)
		m.StepAll(batch, false)
		b.step(batch, m.first > 0)
		i += n
	}
	return b.finish(), b
}
