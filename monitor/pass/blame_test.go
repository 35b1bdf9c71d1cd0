package pass

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/monitor/atomicity"
	"github.com/conc-dev/conc/monitor/internal/montest"
	"github.com/conc-dev/conc/trace"
)

// TestLazyBlamerAgainstEager: the blamer, which starts its tracker only at
// the conflict graph's first cycle (or when its window is full), from the
// begin of the oldest transaction open then, gives the answer of a
// tracker that read the whole trace, broken transactions and their paths
// alike, and the monitor's oldest open transaction is the naive one after
// every batch: on random traces of both shapes (the cross-check's, and a main
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
			evs = montest.GenEvents(montest.SmallGen.Draw(rng, uint64(i)))
		} else {
			evs = montest.MainWorkers(rng)
		}
		for _, lockEdges := range []bool{false, true} {
			opts := atomicity.Options{LockEdges: lockEdges}
			k := atomicity.New(opts)
			k.StepAll(append([]trace.Event(nil), evs...))
			want := k.Finish()
			for _, maxWindow := range []int64{1 << 30, 3} {
				got, b := lazyBlame(rng, evs, opts, maxWindow)
				ctx := fmt.Sprintf("trace %d lockEdges=%v maxWindow %d\n%s", i, lockEdges, maxWindow, montest.FmtTrace(evs))
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
// of random sizes, as Check does.
func lazyBlame(rng *rand.Rand, evs []trace.Event, opts atomicity.Options, maxWindow int64) (atomicity.Result, *blamer) {
	m := monitor.NewTraceMonitor(monitor.TraceOptions{LockEdges: opts.LockEdges})
	b := newBlamer(opts)
	b.maxWindow = maxWindow
	for i := 0; i < len(evs); {
		n := min(len(evs)-i, 1+rng.IntN(6))
		batch := append([]trace.Event(nil), evs[i:i+n]...)
		m.StepAll(batch, false)
		if want := naiveOldestOpen(evs[:i+n]); m.OldestOpen() != want {
			panic(fmt.Sprintf("oldestOpen %d, want %d after line %d", m.OldestOpen(), want, evs[i+n-1].Line))
		}
		b.step(batch, m.First() > 0, m.OldestOpen())
		i += n
	}
	return b.finish(), b
}

// naiveOldestOpen is the begin line of the oldest transaction open after
// evs (nested blocks flattened), past every line if none.
func naiveOldestOpen(evs []trace.Event) int64 {
	depth, begin := map[int32]int{}, map[int32]int64{}
	for _, ev := range evs {
		switch {
		case ev.Op == model.OpBegin:
			if depth[ev.Thread]++; depth[ev.Thread] == 1 {
				begin[ev.Thread] = ev.Line
			}
		case ev.Op == model.OpEnd && depth[ev.Thread] > 0:
			depth[ev.Thread]--
		}
	}
	oldest := int64(math.MaxInt64)
	for t, d := range depth {
		if d > 0 {
			oldest = min(oldest, begin[t])
		}
	}
	return oldest
}
