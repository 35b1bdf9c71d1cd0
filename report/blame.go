package report

import (
	"bufio"
	"cmp"
	"fmt"
	"slices"
)

// A transaction broken by itself (docs/spec.md §1, "broken transactions";
// RegionTrack's criterion) is what a person fixes: conc monitor reports
// them first, grouped by the code locations of where the path that breaks
// them leaves the transaction, the other thread's event that interrupts it
// and where it comes back (the signature); then, when none is broken by
// itself but the trace is not serializable, the joint violation; then how
// many transactions lie on a cycle (Velodrome's count).

// PathEvent is an event of an explanation path, resolved to names.
type PathEvent struct {
	Thread string `json:"thread"`
	Line   int    `json:"line"`
	Op     string `json:"op"`
	Target string `json:"target,omitempty"`
	Loc    string `json:"loc,omitempty"`
	ev     TraceEvent
}

// NewPathEvent is ev (NewTraceEvent's) as a path names it.
func NewPathEvent(ev TraceEvent) PathEvent {
	return PathEvent{Thread: ev.thread, Line: ev.Line, Op: ev.Op, Target: ev.Target, Loc: ev.loc, ev: ev}
}

// PathHop is one edge of a path: From comes before To, of another thread
// (two conflicting events, §1).
type PathHop struct {
	From PathEvent `json:"from"`
	To   PathEvent `json:"to"`
}

// BrokenTxn is a transaction broken by itself, with the path that breaks
// it: Path[0].From is its own event where the path leaves it, the last
// hop's To its own event where the path comes back, and between two hops
// the path stays in one other thread (program order). Group numbers its
// group from 1.
type BrokenTxn struct {
	Thread string    `json:"thread"`
	Begin  int       `json:"begin"`
	End    *int      `json:"end"`
	Group  int       `json:"group"`
	Path   []PathHop `json:"path"`
	// Cut: the path's start was not kept (the tracker's bound on what it
	// remembers, with very many transactions open at once): Path[0].From
	// is then another thread's event.
	Cut bool `json:"cut,omitempty"`
	// Elided counts the hops left out of the middle of a long path,
	// between Path[ElidedAt-1] and Path[ElidedAt].
	Elided   int `json:"elided,omitempty"`
	ElidedAt int `json:"elided_at,omitempty"`
}

// Cycle is b's path as Group.Cycle shows one: b itself with its two events
// (leave, come back), then per other thread the stretch the path runs
// through, from the event where it enters to the one where it leaves.
func (b *BrokenTxn) Cycle() []CycleTxn {
	p := b.Path
	own := CycleTxn{Thread: b.Thread, Begin: b.Begin, End: b.End, Events: []TraceEvent{p[0].From.ev, p[len(p)-1].To.ev}}
	cycle := []CycleTxn{own}
	if b.Cut {
		cycle[0].Events = cycle[0].Events[1:]
		cycle = append(cycle, stretchOf(p[0].From, p[0].From))
	}
	for i := 0; i+1 < len(p); i++ {
		in, out := p[i].To, p[i+1].From
		if b.Elided > 0 && i+1 == b.ElidedAt { // the gap: one event each side
			cycle = append(cycle, stretchOf(in, in), stretchOf(out, out))
			continue
		}
		cycle = append(cycle, stretchOf(in, out))
	}
	return cycle
}

// stretchOf is the stretch of a thread from event in to event out.
func stretchOf(in, out PathEvent) CycleTxn {
	end := out.Line
	evs := []TraceEvent{in.ev}
	if out.Line != in.Line {
		evs = append(evs, out.ev)
	}
	return CycleTxn{Thread: in.Thread, Begin: in.Line, End: &end, Events: evs, Stretch: true}
}

// Signature is what the programmer would fix: where the path leaves the
// transaction, the event that interrupts it (the other thread's event the
// path comes back from), and where it comes back, each as op@LOC (or op
// and target when the event has no location).
func (b *BrokenTxn) Signature() string {
	p := b.Path
	site := func(e PathEvent) string { return string(e.ev.appendSite(nil)) }
	leave := site(p[0].From)
	if b.Cut {
		leave = "?"
	}
	return leave + " | " + site(p[len(p)-1].From) + " | " + site(p[len(p)-1].To)
}

// group is a group of b's signature with b as its example (count 0).
func (b *BrokenTxn) group(sig string) Group {
	g := Group{Signature: sig, First: b.Begin, Cycle: b.Cycle(), Broken: true, Cut: b.Cut}
	switch {
	case b.Cut:
		g.Elided, g.ElidedAt = 1, 1
	case b.Elided > 0: // the second of the gap's two stretches
		g.Elided, g.ElidedAt = b.Elided, b.ElidedAt+1
	}
	return g
}

// Blamer groups broken transactions by signature as they come, in order of
// arrival, keeping each group's first as its example and, if keep is set,
// every transaction (the JSON lists them all).
type Blamer struct {
	keep   bool
	index  map[string]int
	groups []Group
	txns   []BrokenTxn
	count  int64
}

// NewBlamer starts an empty grouping.
func NewBlamer(keep bool) *Blamer { return &Blamer{keep: keep, index: map[string]int{}} }

// Add puts b in its group.
func (g *Blamer) Add(b BrokenTxn) { g.AddGroup(b, 1) }

// AddGroup puts count transactions of b's signature, b the first of
// them, in their group (a driver that grouped them itself; the JSON then
// lists none of them but b).
func (g *Blamer) AddGroup(b BrokenTxn, count int) {
	g.count += int64(count)
	sig := b.Signature()
	k, ok := g.index[sig]
	if !ok {
		k = len(g.groups)
		g.index[sig] = k
		g.groups = append(g.groups, b.group(sig))
	}
	g.groups[k].Count += count
	if g.groups[k].First > b.Begin { // arrival is by end; the example is the first begun
		c := g.groups[k].Count
		g.groups[k] = b.group(sig)
		g.groups[k].Count = c
	}
	if g.keep {
		b.Group = k + 1
		g.txns = append(g.txns, b)
	}
}

// Set puts the grouping into r: the groups in order of their first begin
// line (renumbering the kept transactions' groups to match), and the kept
// transactions by begin line.
func (g *Blamer) Set(r *Report) {
	order := make([]int, len(g.groups))
	for i := range order {
		order[i] = i
	}
	sortBy(order, func(i int) int { return g.groups[i].First })
	rank := make([]int, len(order))
	groups := make([]Group, len(order))
	for k, i := range order {
		rank[i], groups[k] = k+1, g.groups[i]
	}
	for i := range g.txns {
		g.txns[i].Group = rank[g.txns[i].Group-1]
	}
	sortBy(g.txns, func(b BrokenTxn) int { return b.Begin })
	n := g.count
	r.NonAtomic, r.NonAtomicGroups, r.NonAtomicTxns = &n, groups, g.txns
}

// Spanning is the broken transaction, if any, that spans more than half of
// a trace of lines lines: a harness method wrapped around the whole run,
// which hides everything inside it (--not-atomic looks past it).
func (r *Report) Spanning(lines int) *Group {
	for i := range r.NonAtomicGroups {
		g := &r.NonAtomicGroups[i]
		own := g.Cycle[0]
		end := lines
		if own.End != nil {
			end = *own.End
		}
		if lines >= minSpanLines && 2*(end-own.Begin+1) > lines {
			return g
		}
	}
	return nil
}

// NonAtomicCount is NonAtomic, 0 when not decided.
func (r *Report) NonAtomicCount() int64 {
	if r.NonAtomic == nil {
		return 0
	}
	return *r.NonAtomic
}

// minSpanLines is the shortest trace for which Spanning looks: in a
// short one a transaction that spans half of it is no harness.
const minSpanLines = 1000

// ShownBlame are the broken transactions' groups shown (Report.ShowGroups
// of them), then the joint violation's.
func (r *Report) ShownBlame() []Group {
	shown := r.NonAtomicGroups
	if r.ShowGroups > 0 && len(shown) > r.ShowGroups {
		shown = shown[:r.ShowGroups]
	}
	return append(slices.Clip(shown), r.Joint...)
}

// brokenWords is how the text names a group's transactions.
func brokenWords(g *Group) string { return plural(g.Count, "broken transaction") }

// writeBlame prints conc monitor's default answer: the first violating
// line, the note on a transaction spanning most of the trace, the broken
// transactions' groups (Report.ShowGroups of them), the joint violation,
// and the count of atomic blocks on a cycle.
func writeBlame(b *bufio.Writer, r *Report, o TextOptions) {
	if r.First > 0 {
		fmt.Fprintf(b, "first not serializable at trace line %d\n", r.First)
	}
	if s := r.Spanning(r.TraceLines); s != nil {
		own := s.Cycle[0]
		fmt.Fprintf(b, "note: %s spans most of the trace and is broken by the threads running inside it (a harness method?); "+
			"--not-atomic line:%d treats it as not atomic and shows the transactions inside\n", own.Label(r.naming), own.Begin)
	}
	if r.NonAtomicUnknown != "" {
		fmt.Fprintf(b, "broken transactions not decided: %s (docs/traces.md, \"Broken transactions\"); the verdict is the conflict graph's\n", r.NonAtomicUnknown)
	}
	if n := r.NonAtomicCount(); n > 0 {
		fmt.Fprintf(b, "%s broken by %s, in %s (grouped by code locations: docs/traces.md, \"Broken transactions\")\n",
			plural64(n, "transaction"), itself(n), plural(len(r.NonAtomicGroups), "group"))
	}
	shown := r.NonAtomicGroups
	if r.ShowGroups > 0 && len(shown) > r.ShowGroups {
		shown = shown[:r.ShowGroups]
	}
	for i := range shown {
		writeGroupAs(b, r.naming, i+1, &shown[i], brokenWords(&shown[i]), "path")
	}
	if more := len(r.NonAtomicGroups) - len(shown); more > 0 {
		fmt.Fprintf(b, "... and %s (--max-groups 0 shows all)\n", plural(more, "more group"))
	}
	for i := range r.Joint {
		g := &r.Joint[i]
		fmt.Fprintf(b, "no transaction is broken by itself, but these %d cannot all be atomic (a joint violation):\n", len(g.Cycle))
		writeGroupAs(b, r.naming, 0, g, "", "cycle")
	}
	if r.OnCycle != nil && *r.OnCycle > 0 {
		fmt.Fprintf(b, "%s on a cycle of conflicts (--cycles groups every transaction on one)\n", plural64(*r.OnCycle, "atomic block"))
	}
	if o.All && len(r.NonAtomicTxns) > 0 {
		b.WriteString("broken transactions:\n")
		for _, t := range r.NonAtomicTxns {
			fmt.Fprintf(b, "  %s lines %d-%s: group %d\n", r.naming.Thread(t.Thread), t.Begin, endText(t.End), t.Group)
		}
	}
}

func itself(n int64) string {
	if n == 1 {
		return "itself"
	}
	return "themselves"
}

// stretchLabel names a stretch of a thread that a path runs through.
func (t CycleTxn) stretchLabel(n Naming) string {
	if t.End != nil && *t.End == t.Begin {
		return fmt.Sprintf("%s line %d", n.Thread(t.Thread), t.Begin)
	}
	return fmt.Sprintf("%s lines %d-%s", n.Thread(t.Thread), t.Begin, endText(t.End))
}

// sortBy sorts s stably by key.
func sortBy[T any](s []T, key func(T) int) {
	slices.SortStableFunc(s, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
}
