package report

import "slices"

// Grouper groups violating transactions by signature one at a time, in
// any order, keeping per group only its count and its example (the
// violation with the least begin line so far): conc monitor's text and DOT
// output stream a million violations through it without holding them. A
// violation is resolved into reused scratch space: only a new group's (or
// a new example's) signature and cycle are allocated.
type Grouper struct {
	gr     grouper
	index  map[string]int
	groups []Group
}

// NewGrouper groups violations whose events' lines events resolves.
func NewGrouper(events func(line int) (TraceEvent, bool)) *Grouper {
	return &Grouper{gr: grouper{events: events}, index: map[string]int{}, groups: []Group{}}
}

// Add counts v in its group and returns the group's index, which is the
// order of first arrival (Groups reorders them by first begin line).
func (g *Grouper) Add(v *Violation) int {
	cycle, at := g.gr.cycleTxns(v)
	sig := g.gr.signature(cycle, at, v.Elided)
	k, ok := g.index[string(sig)] // no allocation to look up
	if !ok {
		k = len(g.groups)
		g.index[string(sig)] = k
		g.groups = append(g.groups, Group{Signature: string(sig)})
	}
	gp := &g.groups[k]
	if gp.Count++; !ok || v.Begin < gp.First {
		gp.First, gp.Cycle, gp.Elided, gp.ElidedAt = v.Begin, example(cycle), v.Elided, 0
		if v.Elided > 0 {
			gp.ElidedAt = at
		}
	}
	return k
}

// ExampleBegins are the begin lines of the examples' transactions other
// than the first, whose ends Groups asks for.
func (g *Grouper) ExampleBegins() []int {
	var bs []int
	for _, gp := range g.groups {
		for _, t := range gp.Cycle[1:] {
			bs = append(bs, t.Begin)
		}
	}
	return bs
}

// Groups are the groups in order of their first begin line, each example
// transaction after the first given the end that end returns for its begin
// line (every transaction on a cycle is a violating one; nil: open).
func (g *Grouper) Groups(end func(begin int) *int) []Group {
	for _, gp := range g.groups {
		for i := 1; i < len(gp.Cycle); i++ {
			gp.Cycle[i].End = end(gp.Cycle[i].Begin)
		}
	}
	slices.SortStableFunc(g.groups, func(a, b Group) int { return a.First - b.First })
	return g.groups
}

// example copies a scratch cycle out as a group's example (the first
// transaction's end too: a streamed violation's storage is reused).
func example(cycle []CycleTxn) []CycleTxn {
	out := make([]CycleTxn, len(cycle))
	for i, t := range cycle {
		t.Events = slices.Clone(t.Events)
		if t.End != nil {
			end := *t.End
			t.End = &end
		}
		out[i] = t
	}
	return out
}
