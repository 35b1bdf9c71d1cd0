package report

import (
	"bufio"
	"fmt"
)

// writeDOTGroups draws the example cycles of conc monitor's groups shown
// (Report.ShowGroups): one box per transaction (thread, begin and end lines,
// "open" if the trace never ends it), however many cycles pass through it,
// and one edge per conflicting pair of transactions, labelled with the
// variable, or the kind of ordering edge (program order, lock, fork, join).
// A dashed edge stands for an elided middle. Graphviz renders it: the
// drawing grows with the groups shown, never with the trace. n names the
// threads.
func writeDOTGroups(b *bufio.Writer, n Naming, groups []Group) {
	nodes := map[txnKey]string{}
	edges := map[[2]string]bool{}
	node := func(t CycleTxn) string {
		k := txnKey{t.Thread, t.Begin}
		if name, ok := nodes[k]; ok {
			return name
		}
		name := fmt.Sprintf("t%d", len(nodes))
		nodes[k] = name
		fmt.Fprintf(b, "  %s [label=%s];\n", name, quote(t.Label(n)))
		return name
	}
	for _, g := range groups {
		names := make([]string, len(g.Cycle))
		for i, t := range g.Cycle {
			names[i] = node(t)
		}
		for i := range g.Cycle {
			from, to := names[i], names[(i+1)%len(names)]
			if edges[[2]string{from, to}] {
				continue
			}
			edges[[2]string{from, to}] = true
			if g.Elided > 0 && i+1 == g.ElidedAt {
				fmt.Fprintf(b, "  %s -> %s [style=dashed, label=%s];\n", from, to, quote(g.elisionText()))
				continue
			}
			a, c := cycleEdge(g.Cycle, i)
			fmt.Fprintf(b, "  %s -> %s [label=%s];\n", from, to, quote(dotLabel(a, c)))
		}
	}
}

// txnKey names a transaction of a trace: its thread and begin line.
type txnKey struct {
	thread string
	begin  int
}

// dotLabel is why a comes before c, in a word or two: the variable of an
// access conflict, or the kind of ordering edge.
func dotLabel(a, c TraceEvent) string {
	switch kindOfTrace(a, c) {
	case sameThread:
		return "program order"
	case dataConflict:
		return a.Target
	case lockOrder:
		return "lock " + a.Target
	case forkOrder:
		return "fork"
	case joinOrder:
		return "join"
	}
	return "?" // an event not read again (standard input)
}
