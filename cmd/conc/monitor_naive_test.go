package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// naiveTxn is a transaction of naiveGraph: its thread, begin line (of its
// one event if unary) and end line (0 while open).
type naiveTxn struct {
	thread     string
	begin, end int
	scc        int
}

// naiveGraph is a trace's whole conflict graph, built the slow way for the
// monitor's output to be checked against: every transaction (docs/spec.md
// §1: a begin/end block, nested ones flattened, or a lone access, or, with
// lock edges, a lone lock, fork or join event), an edge
// for every pair of conflicting events (specConflict) of two of them, and
// its strongly connected components (Tarjan).
type naiveGraph struct {
	txns  []naiveTxn
	of    map[int]int // event line -> its transaction
	edges [][]int
}

func newNaiveGraph(events map[int]namedTraceEvent, lockEdges bool) *naiveGraph {
	g := &naiveGraph{of: map[int]int{}}
	lines := make([]int, 0, len(events))
	for l := range events {
		lines = append(lines, l)
	}
	sortInts(lines)
	open := map[string]int{} // thread -> its open transaction
	for _, l := range lines {
		ev := events[l]
		k, ok := open[ev.thread]
		if !ok && !lockEdges && !ev.Op.IsAccess() && ev.Op != model.OpBegin {
			continue // a lock, fork or join event outside a transaction belongs to none
		}
		if !ok {
			k = len(g.txns)
			g.txns = append(g.txns, naiveTxn{thread: ev.thread, begin: l, end: l})
			if ev.Op == model.OpBegin { // the reader hands over outermost ones only
				open[ev.thread] = k
				g.txns[k].end = 0
			}
		}
		if ev.Op == model.OpEnd {
			g.txns[k].end = l
			delete(open, ev.thread)
		}
		g.of[l] = k
	}
	g.edges = make([][]int, len(g.txns))
	for i, a := range lines {
		for _, b := range lines[i+1:] {
			x, okx := g.of[a]
			y, oky := g.of[b]
			if okx && oky && x != y && specConflict(events[a].Event, events[b].Event, lockEdges) {
				g.edges[x] = append(g.edges[x], y)
			}
		}
	}
	g.tarjan()
	return g
}

// tarjan numbers the strongly connected components into txns' scc.
func (g *naiveGraph) tarjan() {
	n := len(g.txns)
	index, low := make([]int, n), make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next, comps := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range g.edges[v] {
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				g.txns[w].scc = comps
				if w == v {
					break
				}
			}
			comps++
		}
	}
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
}

// cyclic are the transactions on a cycle (in a component of two or more:
// no transaction conflicts with itself), by begin line.
func (g *naiveGraph) cyclic() map[int]naiveTxn {
	size := map[int]int{}
	for _, t := range g.txns {
		size[t.scc]++
	}
	out := map[int]naiveTxn{}
	for _, t := range g.txns {
		if size[t.scc] > 1 {
			out[t.begin] = t
		}
	}
	return out
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// checkNaive holds monitor's JSON to the naive graph: violating is the
// number of transactions on a cycle, violations are exactly those (thread,
// begin, end), and each group's example cycle lists transactions of one
// component, with their own begin and end lines.
func checkNaive(t *testing.T, got groupsJSON, g *naiveGraph, ctx string) {
	t.Helper()
	cyc := g.cyclic()
	require.Equal(t, len(cyc), got.Violating, ctx)
	require.Len(t, got.Violations, len(cyc), ctx)
	for _, v := range got.Violations {
		x, ok := cyc[v.Begin]
		require.True(t, ok, "line %d: not on a cycle\n%s", v.Begin, ctx)
		require.Equal(t, x.thread, v.Thread, ctx)
		requireEnd(t, x.end, v.End, ctx)
	}
	for _, gp := range got.Groups {
		comp := cyc[gp.Cycle[0].Begin].scc
		require.Equal(t, gp.First, gp.Cycle[0].Begin, ctx)
		for _, tx := range gp.Cycle {
			x, ok := cyc[tx.Begin]
			require.True(t, ok, "line %d: not on a cycle\n%s", tx.Begin, ctx)
			require.Equal(t, comp, x.scc, ctx)
			require.Equal(t, x.thread, tx.Thread, ctx)
			requireEnd(t, x.end, tx.End, ctx)
		}
	}
}

func requireEnd(t *testing.T, want int, got *int, ctx string) {
	t.Helper()
	if want == 0 {
		require.Nil(t, got, ctx)
		return
	}
	require.NotNil(t, got, ctx)
	require.Equal(t, want, *got, ctx)
}
