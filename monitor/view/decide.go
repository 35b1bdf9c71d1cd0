package view

import (
	"context"
	"fmt"
)

// maxObstacles bounds the obstacles a violation lists (Stats.Obstacles
// counts them all).
const maxObstacles = 32

// decider runs Check's stages over what the builder kept.
type decider struct {
	b          *builder
	ctx        context.Context
	maxStates  int64
	searchOnly bool
	hard       []arc // the polygraph's arcs (stage arcs on)
	arcs       int64
	choices    int64
	states     int64
}

// decide fills res's verdict, witness and stage.
func (d *decider) decide(res *Result) {
	b := d.b
	switch {
	case b.real == 0:
		res.Verdict, res.Decided = Serializable, StageEmpty
	case len(b.local) > 0:
		res.Verdict, res.Decided = Violation, StageLocal
		res.Stats.Obstacles = b.locals
		for _, o := range b.local {
			res.Why = append(res.Why, b.resolve(o))
		}
	default:
		if order, ok := d.conflictOrder(); ok && !d.searchOnly {
			res.Verdict, res.Decided, res.Order = Serializable, StageConflict, d.txns(order)
			return
		}
		d.polygraph(res)
	}
}

// txns are the transactions among nodes, in that order.
func (d *decider) txns(nodes []int32) []Txn {
	out := make([]Txn, 0, d.b.real)
	for _, v := range nodes {
		if d.b.nodes[v].thread >= 0 {
			out = append(out, d.b.txn(v))
		}
	}
	return out
}

// conflictOrder is a topological order of the conflict graph (program
// order, the accesses' conflicts, LockEdges' arcs), if it is acyclic: a
// conflict-equivalent serial order, so a view-equivalent one.
func (d *decider) conflictOrder() ([]int32, bool) {
	b := d.b
	defer func() { b.conflicts = nil }() // the polygraph has no use for them
	g := buildCSR(len(b.nodes), func(add func(from, to, id int32)) {
		for v, nd := range b.nodes {
			if nd.prev >= 0 {
				add(nd.prev, int32(v), -1)
			}
		}
		for _, a := range b.arcs {
			add(a.from, a.to, -1)
		}
		for _, c := range b.conflicts {
			add(c.from, c.to, -1)
		}
	}, false)
	return g.topo()
}

// polygraph decides a trace that is not conflict-serializable: the
// polygraph's arcs, then its choices.
func (d *decider) polygraph(res *Result) {
	d.hard = d.hardArcs()
	d.arcs = int64(len(d.hard))
	g := d.hardCSR()
	order, ok := g.topo()
	if !ok {
		path := g.cycle(order)
		facts := make([]Fact, len(path))
		for i, a := range path {
			facts[i] = d.fact(d.hard[g.id[a]])
		}
		res.Verdict, res.Decided = Violation, StageArcs
		res.Why = []Obstacle{{Kind: Cycle, Var: -1, Paths: [][]Fact{mergeHelpers(facts)}}}
		return
	}
	cs, err := d.choicesOf()
	if err != nil {
		res.Verdict, res.Decided, res.Reason = Unknown, StageSearch, err.Error()
		return
	}
	d.choices = int64(len(cs))
	if len(cs) == 0 {
		res.Verdict, res.Decided, res.Order = Serializable, StageArcs, d.txns(order)
		return
	}
	s := newSearch(d, g, order, cs)
	if serializable, nodes, ok := d.oneVariable(g, order, cs); ok && !d.searchOnly {
		res.Decided = StageOneVar
		if serializable {
			res.Verdict, res.Order = Serializable, d.txns(nodes)
		} else {
			res.Verdict, res.Why = Violation, []Obstacle{s.rootObstacle()}
		}
		return
	}
	s.run(res)
}

func (d *decider) hardCSR() *csr {
	return newCSR(len(d.b.nodes), func(add func(from, to, id int32)) {
		for i, a := range d.hard {
			add(a.from, a.to, int32(i))
		}
	})
}

// budgetError is the reason of an Unknown.
func (d *decider) budgetError(what string) error {
	return fmt.Errorf("%s (--max-states %d)", what, d.maxStates)
}
