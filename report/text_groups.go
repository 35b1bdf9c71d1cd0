package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// writeGroups prints conc monitor's grouped answer (GroupViolations): how
// many violating transactions in how many groups, then the groups shown
// (Report.ShowGroups), each with its example cycle in words, and with all every
// violating transaction on a line of its own. So the default output stays
// a screen or two however many violations a long trace has.
func writeGroups(b *bufio.Writer, r *Report, o TextOptions) {
	n := r.ViolatingCount()
	if r.First > 0 {
		fmt.Fprintf(b, "first not serializable at trace line %d\n", r.First)
	}
	if n == 0 {
		return
	}
	fmt.Fprintf(b, "%s in %s (grouped by code locations: docs/traces.md)\n",
		plural64(n, "violating transaction"), plural(len(r.Groups), "group"))
	shown := r.shownGroups()
	for i, g := range shown {
		writeGroup(b, r.naming, i+1, &g)
	}
	if more := len(r.Groups) - len(shown); more > 0 {
		fmt.Fprintf(b, "... and %s (--max-groups 0 shows all)\n", plural(more, "more group"))
	}
	if o.All {
		b.WriteString("violating transactions:\n")
		for _, v := range r.Violations {
			fmt.Fprintf(b, "  %s lines %d-%s: group %d\n", r.naming.Thread(v.Thread), v.Begin, endText(v.End), v.group+1)
		}
	}
}

// writeGroup prints group number k: its count, first line and variables,
// its signature, and its example cycle, transaction by transaction and
// conflict by conflict, threads named by n.
func writeGroup(b *bufio.Writer, n Naming, k int, g *Group) {
	writeGroupAs(b, n, k, g, plural(g.Count, "violating transaction"), "cycle")
}

// writeGroupAs is writeGroup with the group's transactions counted in
// words (a group number k of 0 prints no head line) and its example named
// as a kind ("cycle", or "path" for a broken transaction's).
func writeGroupAs(b *bufio.Writer, n Naming, k int, g *Group, count, kind string) {
	if k > 0 {
		fmt.Fprintf(b, "group %d: %s, first at line %d", k, count, g.First)
		if vars := cycleVars(g.Cycle); len(vars) > 0 {
			b.WriteString(", on " + strings.Join(vars, ", "))
		}
		b.WriteString("\n")
	}
	b.WriteString("  signature: " + g.Signature + "\n")
	writeExample(b, n, g, kind)
}

// WriteExample prints g's example as the text shows it under the group's
// signature line: the path (a group of broken transactions) or the cycle,
// then one line per conflict, threads named by n. conc monitor's corpus
// report (report/merged) keeps these lines as a group's explanation.
func WriteExample(w io.Writer, n Naming, g *Group) error {
	b := bufio.NewWriter(w)
	kind := "cycle"
	if g.Broken {
		kind = "path"
	}
	writeExample(b, n, g, kind)
	return b.Flush()
}

// Vars are the variables g's example accesses, in order (the text's "on
// x, y").
func (g *Group) Vars() []string { return cycleVars(g.Cycle) }

// writeExample is WriteExample's body, the example named as a kind.
func writeExample(b *bufio.Writer, n Naming, g *Group, kind string) {
	runs := unaryRuns(g)
	var names []string
	for i := 0; i < len(g.Cycle); i++ {
		t := g.Cycle[i]
		if g.Elided > 0 && i == g.ElidedAt {
			names = append(names, g.elisionText())
		}
		if j := runs[i]; j > i {
			names = append(names, fmt.Sprintf("%s lines %d-%d (%d unary events)", n.Thread(t.Thread), t.Begin, g.Cycle[j].Begin, j-i+1))
			i = j
			continue
		}
		names = append(names, t.Label(n))
	}
	if g.Elided > 0 && g.ElidedAt == len(g.Cycle) {
		names = append(names, g.elisionText())
	}
	fmt.Fprintf(b, "  %s %s → back to %s:\n", kind, strings.Join(names, " → "), n.Thread(g.Cycle[0].Thread))
	for i := 0; i < len(g.Cycle); i++ {
		if j := runs[i]; j > i {
			t := g.Cycle[i]
			fmt.Fprintf(b, "    %s's %d unary events at lines %d to %d follow one another (program order of %s)\n",
				n.Thread(t.Thread), j-i+1, t.Begin, g.Cycle[j].Begin, n.Thread(t.Thread))
			i = j - 1 // the run's last event still has its edge out
			continue
		}
		if g.Elided > 0 && i+1 == g.ElidedAt {
			continue // the conflicts of the elided middle are not listed
		}
		a, c := cycleEdge(g.Cycle, i)
		words, _ := explainPair(n, a.named(), c.named(), kindOfTrace(a, c))
		b.WriteString("    " + words + "\n")
	}
}

// ViolatingCount is how many violating transactions conc monitor found:
// Violating, or, for a report that has no count, its Violations.
func (r *Report) ViolatingCount() int64 {
	if r.Violating != nil {
		return *r.Violating
	}
	return int64(len(r.Violations))
}

// shownGroups are the first ShowGroups groups (all if 0).
func (r *Report) shownGroups() []Group {
	if r.ShowGroups > 0 && len(r.Groups) > r.ShowGroups {
		return r.Groups[:r.ShowGroups]
	}
	return r.Groups
}

// minUnaryRun is the fewest unary transactions in a row that the text
// names as one run.
const minUnaryRun = 3

// unaryRuns finds the runs of at least minUnaryRun unary transactions of
// one thread in a row on the cycle, the program order of a thread's
// accesses outside atomic blocks, which a real trace's cycles are mostly
// made of: runs[i] = j > i when Cycle[i..j] is one. The violating
// transaction (Cycle[0]) is never in one, and no run spans the elision.
func unaryRuns(g *Group) []int {
	runs := make([]int, len(g.Cycle))
	for i := 1; i < len(g.Cycle); {
		j := i
		for j+1 < len(g.Cycle) && g.Cycle[i].Unary() && g.Cycle[j+1].Unary() &&
			g.Cycle[j+1].Thread == g.Cycle[i].Thread && !(g.Elided > 0 && j+1 == g.ElidedAt) {
			j++
		}
		if j-i+1 >= minUnaryRun {
			runs[i] = j
		}
		i = j + 1
	}
	return runs
}

// cycleEdge is the conflict from cycle[i] to the next transaction (the
// first after the last): the event where the cycle leaves cycle[i] and the
// one where it enters the next. The violating transaction, cycle[0], is
// left at its first event (Out) and entered at its last (In, the same event
// if it is its only one).
func cycleEdge(cycle []CycleTxn, i int) (from, to TraceEvent) {
	t := cycle[i]
	from = t.Events[len(t.Events)-1]
	if i == 0 {
		from = t.Events[0]
	}
	next := cycle[(i+1)%len(cycle)]
	to = next.Events[0]
	if i+1 == len(cycle) {
		to = next.Events[len(next.Events)-1]
	}
	return from, to
}

// endText is an end line, or "open" for a transaction the trace never ends.
func endText(end *int) string {
	if end == nil {
		return "open"
	}
	return fmt.Sprint(*end)
}

// cycleVars are the variables the cycle's access events name, in order.
func cycleVars(cycle []CycleTxn) []string {
	var vars []string
	seen := map[string]bool{}
	for _, t := range cycle {
		for _, e := range t.Events {
			if e.op.IsAccess() && !seen[e.Target] {
				seen[e.Target] = true
				vars = append(vars, e.Target)
			}
		}
	}
	return vars
}
