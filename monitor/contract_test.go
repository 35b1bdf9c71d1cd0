package monitor

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/internal/montest"
	"github.com/conc-dev/conc/monitor/internal/txn"
	"github.com/conc-dev/conc/trace"
)

// TestContractionAgainstNaive: on random main-and-workers traces, with
// only the first cycle spelled out (conc monitor's default) and the graph
// collected after almost every transaction (with reachability bits for
// every open transaction, and with none), so that chains merge before
// the first cycle and components contract after it, the monitor's first
// violating line and count of transactions on a cycle equal the naive
// computation's, and the cycle it lists is a real one; until the first
// cycle, every edge of the graph after a collection is a real one, its
// lines naming events of its ends that conflict, or follow one another in
// program order; both before the first cycle and after it, contraction
// happens.
func TestContractionAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 24))
	before, after, absorbed := int64(0), int64(0), int64(0)
	for i := range testflag.N(400, 3000) {
		evs := montest.MainWorkers(rng)
		for k := range 8 {
			// with reachability bits and without; counting every
			// transaction, or blocks only (unary runs absorbed)
			lockEdges, free, blocks := k%2 == 1, ^uint64(0)>>(k/2%2*64), k >= 4
			want := naiveCheck(evs, lockEdges)
			m := NewTraceMonitor(TraceOptions{LockEdges: lockEdges, MaxCycle: 1000, MaxViolations: 1, CountBlocks: blocks})
			m.gcMin, m.gcAt, m.free = 1, 1, free
			ctx := fmt.Sprintf("trace %d lockEdges=%v slots %x blocks=%v\n%s", i, lockEdges, free, blocks, montest.FmtTrace(evs))
			pre, gcs := int64(0), int64(0)
			for _, e := range evs {
				if m.Step(e); m.first == 0 {
					pre = m.stats.Contracted
					if m.stats.GCs > gcs {
						gcs = m.stats.GCs
						checkEdgesReal(t, m, want, lockEdges, ctx)
					}
				}
			}
			before += pre
			got := m.Finish()
			after += got.Stats.Contracted
			absorbed += got.Stats.Absorbed
			require.Equal(t, want.first, got.First, ctx)
			if blocks {
				require.EqualValues(t, want.cyclicBlocks(), got.Count, ctx)
			} else {
				require.EqualValues(t, len(want.cyclic), got.Count, ctx)
			}
			for _, v := range got.Violations {
				checkReportedCycle(t, want, v, lockEdges, ctx)
			}
		}
	}
	require.Positive(t, before, "no chain merged before the first cycle")
	require.Greater(t, after, before, "nothing contracted after the first cycle")
	require.Positive(t, absorbed, "no unary event absorbed")
}

// TestContractionKeepsTheGraphSmall: on jgf-sor's shape (every access of
// a worker joins the open main transaction's component) and jgf-crypt's
// (a worker's transactions, each reading the main transaction's input and
// writing a scratch variable, are on no cycle until the main thread reads
// their outputs at its end), over fifty variables, the default answer's
// monitor keeps a graph whose size does not grow with the trace, and
// still counts every transaction on a cycle; listing every cycle keeps
// them all. On crypt's own shape, where the workers' reads are unary and
// each of a different variable (whose record then names its reader), it
// takes absorbing the unary runs (CountBlocks): without, the graph grows.
func TestContractionKeepsTheGraphSmall(t *testing.T) {
	for _, n := range []int{4000, 16000} {
		checkSmallGraph(t, n, "sor", sorShape(n), false)
		checkSmallGraph(t, n, "crypt", cryptShape(n), false)
		checkSmallGraph(t, n, "sor blocks", sorShape(n), true)
		checkSmallGraph(t, n, "crypt unary", cryptUnaryShape(n), true)
		m := NewTraceMonitor(TraceOptions{MaxViolations: 1})
		for _, e := range cryptUnaryShape(n) {
			m.Step(e)
		}
		require.Greater(t, m.Finish().Stats.MaxLive, int64(n/2), "crypt unary, every transaction counted")
	}
}

// checkSmallGraph runs the monitor on evs, a shape of size n, listing
// every cycle and listing one; blocks counts the atomic blocks only.
func checkSmallGraph(t *testing.T, n int, name string, evs []trace.Event, blocks bool) {
	want := int64(0)
	for _, o := range []TraceOptions{{OnViolation: func(*TraceViolation) {}}, {MaxViolations: 1}} {
		o.CountBlocks = blocks
		m := NewTraceMonitor(o)
		m.gcMin, m.gcAt = 64, 64
		for _, e := range evs {
			m.Step(e)
		}
		res := m.Finish()
		if o.OnViolation != nil {
			want = res.Count
			require.Greater(t, res.Stats.MaxLive, int64(n), name)
			continue
		}
		require.Positive(t, res.Count, name)
		require.Equal(t, want, res.Count, name)
		require.Less(t, res.Stats.MaxLive, int64(400), name)
	}
}

// shapeEvents numbers events as they are added.
type shapeEvents struct {
	evs  []trace.Event
	line int64
}

func (s *shapeEvents) add(th int32, op model.Op, target int32) {
	s.line++
	s.evs = append(s.evs, trace.Event{Thread: th, Op: op, Target: target, Loc: -1, Line: s.line})
}

// sorShape: T0 writes x; U's unary accesses read x and write y_i (of
// fifty), which T0 reads at once.
func sorShape(n int) []trace.Event {
	var s shapeEvents
	s.add(0, model.OpBegin, -1)
	s.add(0, model.OpWrite, 0)
	for i := int32(1); i <= int32(n); i++ {
		s.add(1, model.OpRead, 0)
		s.add(1, model.OpWrite, 1+i%50)
		s.add(0, model.OpRead, 1+i%50)
	}
	s.add(0, model.OpEnd, -1)
	return s.evs
}

// cryptShape: T0 writes the input x; U's transactions each read x,
// write the scratch variable s and, every tenth, an output y_i (of
// fifty); T0 reads the outputs at its end.
func cryptShape(n int) []trace.Event {
	var s shapeEvents
	s.add(0, model.OpBegin, -1)
	s.add(0, model.OpWrite, 0)
	for i := range int32(n) {
		s.add(1, model.OpBegin, -1)
		s.add(1, model.OpRead, 0)
		s.add(1, model.OpWrite, 1)
		if i%10 == 0 {
			s.add(1, model.OpWrite, 2+i/10%50)
		}
		s.add(1, model.OpEnd, -1)
	}
	for i := range int32(50) {
		s.add(0, model.OpRead, 2+i)
	}
	s.add(0, model.OpEnd, -1)
	return s.evs
}

// cryptUnaryShape: T0 writes the inputs x_i, one each, and forks U;
// U's unary events each read an input and, every tenth, write an output
// y_i (of fifty); T0 joins U and reads the outputs at its end.
func cryptUnaryShape(n int) []trace.Event {
	var s shapeEvents
	out := int32(n)
	s.add(0, model.OpBegin, -1)
	for i := range int32(n) {
		s.add(0, model.OpWrite, i)
	}
	s.add(0, model.OpFork, 1)
	for i := range int32(n) {
		s.add(1, model.OpRead, i)
		if i%10 == 0 {
			s.add(1, model.OpWrite, out+i/10%50)
		}
	}
	s.add(0, model.OpJoin, 1)
	for i := range int32(50) {
		s.add(0, model.OpRead, out+i)
	}
	s.add(0, model.OpEnd, -1)
	return s.evs
}

// checkEdgesReal checks every edge of m's graph, both lists, against the
// trace's events (want's tables).
func checkEdgesReal(t *testing.T, m *TraceMonitor, want naiveResult, lockEdges bool, ctx string) {
	t.Helper()
	for _, n := range m.nodes {
		for _, e := range n.Out {
			checkEdgeReal(t, want, n, e.To, e.From, e.At, lockEdges, ctx)
		}
		for _, e := range n.In {
			checkEdgeReal(t, want, e.To, n, e.From, e.At, lockEdges, ctx)
		}
	}
}

// checkEdgeReal checks that the event at line from is of a, the one at
// at of b, and that they conflict or follow one another in a's thread.
func checkEdgeReal(t *testing.T, want naiveResult, a, b *txn.Txn, from, at int64, lockEdges bool, ctx string) {
	t.Helper()
	what := fmt.Sprintf("edge T%d@%d (line %d) -> T%d@%d (line %d)", a.Thread, a.Begin, from, b.Thread, b.Begin, at)
	require.Equal(t, runBegin(a, from), want.txns[want.txnOf[from]].begin, "%s: its source's event\n%s", what, ctx)
	require.Equal(t, runBegin(b, at), want.txns[want.txnOf[at]].begin, "%s: its target's event\n%s", what, ctx)
	if b.Unary {
		require.Equal(t, b.Begin, at, "%s: an edge into a run enters its first event\n%s", what, ctx)
	}
	x, y := want.events[from], want.events[at]
	require.Less(t, from, at, "%s\n%s", what, ctx)
	require.True(t, x.Thread == y.Thread || traceNaiveConflict(x, y, lockEdges), "%s: no conflict\n%s", what, ctx)
}
