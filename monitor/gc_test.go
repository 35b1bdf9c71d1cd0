package monitor

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// jgf-sor's shape: one transaction of the main thread stays open while
// another thread's unary accesses each join its cycle (T0 writes x, U reads
// x and writes y_i, T0 reads y_i). Every one of them is a member of T0's
// component, so collections keep them all when each is to be listed
// with its cycle (docs/traces.md, "Contraction"); what a collection may not do is hold copies of that
// graph besides: its forward pass records only the order, and its
// backward pass walks the in-lists, so neither tree edges nor a reversed
// edge list (24 bytes a node and an edge, a quarter of sor's heap) stay
// behind as scratch.
func TestCollectKeepsNoCopyOfTheGraph(t *testing.T) {
	const n = 3000
	line := int64(0)
	ev := func(thread int32, op model.Op, target int32) trace.Event {
		line++
		return trace.Event{Thread: thread, Op: op, Target: target, Loc: -1, Line: line}
	}
	evs := []trace.Event{ev(0, model.OpBegin, -1), ev(0, model.OpWrite, 0)}
	for i := int32(1); i <= n; i++ {
		evs = append(evs, ev(1, model.OpRead, 0), ev(1, model.OpWrite, i), ev(0, model.OpRead, i))
	}
	evs = append(evs, ev(0, model.OpEnd, -1))
	// With reachability bits: without, closures' own search (which does
	// need both) would run on every read of T0.
	m := NewTraceMonitor(TraceOptions{OnViolation: func(*TraceViolation) {}})
	m.gcMin, m.gcAt = 64, 64
	m.StepAll(evs[:len(evs)-1], false)
	require.Positive(t, m.stats.GCs)
	require.Equal(t, int64(2*n+1), m.stats.MaxLive, "every access joins T0's component and stays")
	require.Zero(t, cap(m.search.parent), "collect recorded tree edges")
	require.Zero(t, cap(m.search.rev), "collect reversed the graph")
	m.StepAll(evs[len(evs)-1:], false)
	require.Equal(t, int64(2*n+1), m.Finish().Count)
}
