package view

import "github.com/conc-dev/conc/model"

// maxOpen bounds the open choices an Exhausted obstacle lists.
const maxOpen = 8

// fact is hard arc a as a Fact.
func (d *decider) fact(a arc) Fact {
	return Fact{Kind: a.kind, Before: d.b.txn(a.from), After: d.b.txn(a.to), Var: a.x,
		Lines: [3]int64{a.l1, a.l2}, Third: Txn{Thread: -1}}
}

// choiceFact is choice i with arc opt (before: k → w, after: r → k; open:
// the choice itself, k before w or after r).
func (d *decider) choiceFact(c *choice, opt int8, forced bool) Fact {
	f := Fact{Kind: Choice, Before: d.b.txn(c.k), After: d.b.txn(c.w), Third: d.b.txn(c.r), Var: c.x,
		Lines: [3]int64{c.kLine, c.wLine, c.rLine}, Forced: forced, Open: opt == open}
	if opt == after {
		f.Before, f.After, f.Third = d.b.txn(c.r), d.b.txn(c.k), d.b.txn(c.w)
	}
	return f
}

// mergeHelpers joins the two facts of each pass through a helper node
// (a transaction of thread -1) into one, Before of the first to After of
// the second; facts is a cycle or a path that neither starts nor ends at
// a helper.
func mergeHelpers(facts []Fact) []Fact {
	if len(facts) > 1 && facts[0].Before.Thread < 0 {
		facts = append(facts[1:], facts[0]) // a cycle read from its helper: start after it
	}
	var out []Fact
	for i := 0; i < len(facts); i++ {
		f := facts[i]
		if f.After.Thread < 0 && i+1 < len(facts) {
			next := facts[i+1]
			f.After, f.Lines[1] = next.After, next.Lines[1]
			i++
		}
		out = append(out, f)
	}
	return out
}

// noPlace is the obstacle of choice i, which neither arc can take: the
// path from its source to its writer and the one from its writer to its
// reader, in the graph with the arcs forced so far.
func (s *search) noPlace(i int) Obstacle {
	d, c := s.d, &s.cs[i]
	events := []Event{
		d.b.event(c.r, c.rLine, c.x, model.OpRead),
		d.b.event(c.w, c.wLine, c.x, model.OpWrite),
		d.b.event(c.k, c.kLine, c.x, model.OpWrite),
	}
	return Obstacle{Kind: NoPlace, Var: c.x, Events: events, Paths: [][]Fact{s.path(c.w, c.k), s.path(c.k, c.r)}}
}

// exhausted is the obstacle of a search that tried every way: the
// choices open at its root.
func (s *search) exhausted(root []int) Obstacle {
	var facts []Fact
	for _, i := range root[:min(len(root), maxOpen)] {
		facts = append(facts, s.d.choiceFact(&s.cs[i], open, false))
	}
	return Obstacle{Kind: Exhausted, Var: -1, Paths: [][]Fact{facts}}
}

// path is a shortest path from a to b in the search's graph, as facts.
func (s *search) path(a, b int32) []Fact {
	type step struct {
		from   int32
		hard   int32 // index into d.hard, or -1
		choice int32
	}
	via := map[int32]step{a: {from: -1}}
	queue := []int32{a}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		reach := func(t int32, st step) {
			if _, ok := via[t]; !ok {
				via[t] = st
				queue = append(queue, t)
			}
		}
		for j := s.g.off[v]; j < s.g.off[v+1]; j++ {
			reach(s.g.to[j], step{from: v, hard: s.g.id[j], choice: -1})
		}
		for _, i := range s.outArcs[v] {
			_, t := s.ends(int(i), s.state[i])
			reach(t, step{from: v, hard: -1, choice: i})
		}
		if _, ok := via[b]; ok {
			break
		}
	}
	var facts []Fact
	for v := b; v != a; {
		st := via[v]
		if st.hard >= 0 {
			facts = append(facts, s.d.fact(s.d.hard[st.hard]))
		} else {
			facts = append(facts, s.d.choiceFact(&s.cs[st.choice], s.state[st.choice], s.forced[st.choice]))
		}
		v = st.from
	}
	for i, j := 0, len(facts)-1; i < j; i, j = i+1, j-1 {
		facts[i], facts[j] = facts[j], facts[i]
	}
	return mergeHelpers(facts)
}
