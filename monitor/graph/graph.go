package graph

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// kind is what an access record remembers about a transaction: the events of
// it that later events of other transactions can conflict with.
type kind uint8

const (
	kRead    kind = iota // read of a variable
	kWrite               // write of a variable
	kRelease             // release of a lock (lock edges only)
	kFork                // fork of a thread (lock edges only)
)

// access records that live node Node did an event of Kind on Target, first at
// run index Idx. One record per (node, kind, target): any one such event is a
// valid witness for a conflict with a later event.
type access struct {
	Node   int32
	Kind   kind
	Target int32
	Idx    int
}

// node is one live transaction.
type node struct {
	Thread int32
	Open   bool
	InDeg  int32 // number of edges into the node
	Last   int   // run index of its latest event (witness for same-thread conflicts)
}

// edge is a conflict-graph edge From -> To (node indices) with one witnessing
// pair of conflicting events.
type edge struct {
	From, To int32
	Pair     model.Conflict
}

// Graph is the exact conflict graph of a run (Lemma 1), restricted to the
// transactions that can still lie on a cycle (see the package doc). The zero
// value is not usable; call New.
type Graph struct {
	lockEdges bool
	n         int // events stepped so far: the next event's run index
	nodes     []node
	accs      []access
	edges     []edge
	cur       []int32 // per thread: its open node, or -1
	nest      []int32 // per thread: begin/end nesting depth
	cyclic    bool

	mark  []int32 // scratch, per node: stamp of the step that saw an edge into it
	stamp int32
}

// New returns the empty graph. With lockEdges, release/acquire, fork and join
// events conflict too (docs/spec.md §1's --lock-edges).
func New(lockEdges bool) *Graph { return &Graph{lockEdges: lockEdges} }

// Len is the number of events stepped so far.
func (g *Graph) Len() int { return g.n }

// Live is the number of transactions kept (those that may still be on a cycle).
func (g *Graph) Live() int { return len(g.nodes) }

// NumEdges is the number of edges among the live transactions.
func (g *Graph) NumEdges() int { return len(g.edges) }

// Cyclic reports whether some step has closed a cycle.
func (g *Graph) Cyclic() bool { return g.cyclic }

// Step appends event s to the run (its run index is Len() before the call) and
// returns the cycle it closes, or nil. The cycle lists conflicting event
// pairs: each From < To, consecutive pairs chain through one transaction, and
// the last returns to the first's transaction. Steps with a negative thread or
// target, or an unknown op, are errors and leave the graph unchanged.
func (g *Graph) Step(s model.Step) ([]model.Conflict, error) {
	if err := checkStep(s); err != nil {
		return nil, err
	}
	t := s.Thread
	g.grow(t)
	if s.Ev.Op == model.OpFork || s.Ev.Op == model.OpJoin {
		g.grow(s.Ev.Target)
	}
	i := g.n
	g.n++
	switch op := s.Ev.Op; {
	case op == model.OpSkip:
		return nil, nil
	case op == model.OpBegin:
		g.nest[t]++
		if g.nest[t] == 1 {
			g.open(t)
		}
		return g.addEvent(t, i, s.Ev), nil
	case op == model.OpEnd:
		if g.nest[t] == 0 {
			return nil, nil // a stray end belongs to no transaction
		}
		cyc := g.addEvent(t, i, s.Ev)
		if g.nest[t]--; g.nest[t] == 0 {
			g.close(t)
		}
		return cyc, nil
	case op.IsSync() && !g.lockEdges:
		return nil, nil // not part of the schedule
	case op.IsExtension():
		// docs/spec.md §3's orderings conflict under lock edges in ways this
		// graph does not model (a token's give is the run's).
		return nil, fmt.Errorf("monitor: %s under lock edges is not modelled", op)
	case g.cur[t] >= 0:
		return g.addEvent(t, i, s.Ev), nil
	default: // a unary transaction: begin; event; end
		g.open(t)
		cyc := g.addEvent(t, i, s.Ev)
		g.close(t)
		return cyc, nil
	}
}

func checkStep(s model.Step) error {
	switch {
	case s.Thread < 0:
		return fmt.Errorf("monitor: step with negative thread %d", s.Thread)
	case s.Ev.Op > model.OpTake:
		return fmt.Errorf("monitor: step with unknown op %d", s.Ev.Op)
	case s.Ev.Op.HasTarget() && s.Ev.Target < 0:
		return fmt.Errorf("monitor: %s step with negative target %d", s.Ev.Op, s.Ev.Target)
	}
	return nil
}

// grow makes room for thread t.
func (g *Graph) grow(t int32) {
	for int(t) >= len(g.cur) {
		g.cur = append(g.cur, -1)
		g.nest = append(g.nest, 0)
	}
}

// open starts a new transaction of thread t.
func (g *Graph) open(t int32) {
	g.cur[t] = int32(len(g.nodes))
	g.nodes = append(g.nodes, node{Thread: t, Open: true, Last: -1})
}

// close ends thread t's transaction and collects it if it is a source.
func (g *Graph) close(t int32) {
	n := g.cur[t]
	g.cur[t] = -1
	g.nodes[n].Open = false
	if g.nodes[n].InDeg == 0 {
		g.collect(n)
	}
}

// addEvent adds event ev (run index i) of thread t to t's open transaction n:
// an edge m -> n for every other live transaction m with an earlier event
// that conflicts with ev (unless m -> n exists already), then ev's own access
// record. It returns the cycle closed by one of the new edges, if any.
func (g *Graph) addEvent(t int32, i int, ev model.Event) []model.Conflict {
	n := g.cur[t]
	g.markInEdges(n)
	first := len(g.edges)
	for m := range g.nodes {
		nd := &g.nodes[m]
		sameThread := nd.Thread == t
		joined := g.lockEdges && ev.Op == model.OpJoin && nd.Thread == ev.Target
		if int32(m) != n && (sameThread || joined) {
			g.addEdge(int32(m), n, nd.Last, i)
		}
	}
	for _, a := range g.accs {
		if a.Node != n && g.conflicts(a, t, ev) {
			g.addEdge(a.Node, n, a.Idx, i)
		}
	}
	g.record(n, i, ev)
	g.nodes[n].Last = i
	if len(g.edges) == first {
		return nil
	}
	return g.findCycle(n, first)
}

// conflicts reports whether recorded access a (earlier, in another
// transaction) conflicts with event ev of thread t.
func (g *Graph) conflicts(a access, t int32, ev model.Event) bool {
	switch a.Kind {
	case kRead:
		return ev.Op == model.OpWrite && ev.Target == a.Target
	case kWrite:
		return ev.Op.IsAccess() && ev.Target == a.Target
	case kRelease:
		return ev.Op == model.OpAcquire && ev.Target == a.Target
	default: // kFork: the fork of t precedes every event of t
		return a.Target == t
	}
}

// record notes ev in n's access records, once per (kind, target).
func (g *Graph) record(n int32, i int, ev model.Event) {
	var k kind
	switch {
	case ev.Op == model.OpRead:
		k = kRead
	case ev.Op == model.OpWrite:
		k = kWrite
	case ev.Op == model.OpRelease && g.lockEdges:
		k = kRelease
	case ev.Op == model.OpFork && g.lockEdges:
		k = kFork
	default:
		return
	}
	for _, a := range g.accs {
		if a.Node == n && a.Kind == k && a.Target == ev.Target {
			return
		}
	}
	g.accs = append(g.accs, access{Node: n, Kind: k, Target: ev.Target, Idx: i})
}

// markInEdges stamps every node that already has an edge into n.
func (g *Graph) markInEdges(n int32) {
	for len(g.mark) < len(g.nodes) {
		g.mark = append(g.mark, 0)
	}
	g.stamp++
	for _, e := range g.edges {
		if e.To == n {
			g.mark[e.From] = g.stamp
		}
	}
}

// addEdge adds m -> n witnessed by events (from, to) unless it exists.
func (g *Graph) addEdge(m, n int32, from, to int) {
	if g.mark[m] == g.stamp {
		return
	}
	g.mark[m] = g.stamp
	g.edges = append(g.edges, edge{From: m, To: n, Pair: model.Conflict{From: from, To: to}})
	g.nodes[n].InDeg++
}
