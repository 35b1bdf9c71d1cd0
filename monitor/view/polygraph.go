package view

import (
	"fmt"
	"maps"
	"slices"
)

// choicesPerState is how many choices the search may hold per state of
// its budget: the choices live in memory (40 bytes each).
const choicesPerState = 4

// choice is one choice of the polygraph: read r of variable x sees w's
// write, and k, another writer of x, must come before w (k → w) or after
// r (r → k). The lines are k's first write of x, the write r sees and
// r's read.
type choice struct {
	k, w, r             int32
	x                   int32
	kLine, wLine, rLine int64
}

// hardArcs are the polygraph's arcs: program order, LockEdges' arcs,
// reads-from, each reader of an initial value before the variable's
// writers, and each writer and each reader of another write before the
// final write. Helper nodes stand for many-to-many arcs.
func (d *decider) hardArcs() []arc {
	b := d.b
	var hard []arc
	for v, nd := range b.nodes {
		if nd.prev >= 0 {
			hard = append(hard, arc{nd.prev, int32(v), ProgramOrder, nd.thread, 0, 0})
		}
	}
	hard = append(hard, b.arcs...)
	for x := range b.vars {
		hard = d.varArcs(hard, int32(x))
	}
	return hard
}

// varArcs adds variable x's arcs to hard.
func (d *decider) varArcs(hard []arc, x int32) []arc {
	b := d.b
	v := &b.vars[x]
	initial := 0
	for _, r := range v.reads {
		if r.from.node >= 0 && r.from.node != r.reader {
			hard = append(hard, arc{r.from.node, r.reader, ReadsFrom, x, r.from.line, r.line})
		}
		if r.from.node < 0 {
			initial++
		}
	}
	if len(v.writers) == 0 {
		return hard
	}
	if initial > 0 {
		hard = d.initialArcs(hard, x)
	}
	hard = d.threadArcs(hard, x)
	return d.finalArcs(hard, x)
}

// threadArcs place the writers of x that share a thread with a read's
// writer or reader: a later write of x in the writer's thread goes after
// the reader (SourceNext), an earlier one in the reader's thread before
// the writer (ReaderPrev). Program order places the rest of those
// threads' writers, so one arc per read and thread does.
func (d *decider) threadArcs(hard []arc, x int32) []arc {
	b := d.b
	v := &b.vars[x]
	if len(v.writers) < 2 {
		return hard
	}
	byThread := d.writersByThread(x)
	for _, r := range v.reads {
		w := r.from.node
		if w < 0 || w == r.reader {
			continue
		}
		ws := byThread[b.nodes[w].thread]
		i, _ := slices.BinarySearchFunc(ws, w+1, func(s src, n int32) int { return int(s.node - n) })
		if i < len(ws) && ws[i].node != r.reader {
			hard = append(hard, arc{r.reader, ws[i].node, SourceNext, x, r.line, ws[i].line})
		}
		if b.nodes[r.reader].thread == b.nodes[w].thread {
			continue
		}
		rs := byThread[b.nodes[r.reader].thread]
		j, _ := slices.BinarySearchFunc(rs, r.reader, func(s src, n int32) int { return int(s.node - n) })
		if j > 0 {
			hard = append(hard, arc{rs[j-1].node, w, ReaderPrev, x, rs[j-1].line, r.line})
		}
	}
	return hard
}

// writersByThread are x's writers by thread, each in program order.
func (d *decider) writersByThread(x int32) map[int32][]src {
	m := map[int32][]src{}
	for _, w := range d.b.vars[x].writers {
		t := d.b.nodes[w.node].thread
		m[t] = append(m[t], w)
	}
	for _, ws := range m {
		slices.SortFunc(ws, func(a, b src) int { return int(a.node - b.node) })
	}
	return m
}

// initialArcs: a read of x's initial value comes before every other
// writer of x. Readers that do not write x go before a helper node that
// precedes every writer; a reader that writes x gets its own arcs.
func (d *decider) initialArcs(hard []arc, x int32) []arc {
	b := d.b
	v := &b.vars[x]
	writes := map[int32]int64{}
	for _, w := range v.writers {
		writes[w.node] = w.line
	}
	h := b.newNode(-1, 0)
	for _, w := range v.writers {
		hard = append(hard, arc{h, w.node, InitialRead, x, 0, w.line})
	}
	own := 0
	for _, r := range v.reads {
		if r.from.node >= 0 {
			continue
		}
		if _, writes := writes[r.reader]; !writes {
			hard = append(hard, arc{r.reader, h, InitialRead, x, r.line, 0})
			continue
		}
		// A reader of the initial value that writes x: before every
		// other writer. Two of them already close a cycle, so two are
		// enough to show it.
		if own++; own > 2 {
			continue
		}
		for _, w := range v.writers {
			if w.node != r.reader {
				hard = append(hard, arc{r.reader, w.node, InitialRead, x, r.line, w.line})
			}
		}
	}
	return hard
}

// finalArcs: every writer of x, and every reader of a write of x other
// than the final one, comes before the final write's transaction.
func (d *decider) finalArcs(hard []arc, x int32) []arc {
	b := d.b
	v := &b.vars[x]
	f := v.last
	h := b.newNode(-1, 0)
	hard = append(hard, arc{h, f.node, FinalWrite, x, 0, f.line})
	for _, w := range v.writers {
		if w.node != f.node {
			hard = append(hard, arc{w.node, h, FinalWrite, x, w.line, 0})
		}
	}
	for _, r := range v.reads {
		if r.from.node != f.node && r.reader != f.node {
			hard = append(hard, arc{r.reader, h, BeforeFinal, x, r.line, 0})
		}
	}
	return hard
}

// choicesOf lists the polygraph's choices: for each read of a write of x
// other than the initial value, each other writer of x but the final
// one (whose place the arcs fix) in a third thread (threadArcs place
// those of the writer's and the reader's threads). Too many for the
// budget is an error (Unknown).
func (d *decider) choicesOf() ([]choice, error) {
	b := d.b
	limit := d.maxStates * choicesPerState
	var cs []choice
	for x := range b.vars {
		v := &b.vars[x]
		if len(v.writers) < 2 {
			continue
		}
		byThread := d.writersByThread(int32(x))
		threads := slices.Sorted(maps.Keys(byThread)) // a fixed order: the search and its answer are deterministic
		for _, r := range v.reads {
			w := r.from.node
			if w < 0 || w == r.reader || w == v.last.node {
				// the initial value's readers and the final write's
				// have their arcs
				continue
			}
			tw, tr := b.nodes[w].thread, b.nodes[r.reader].thread
			for _, t := range threads {
				ws := byThread[t]
				if t == tw || t == tr {
					continue // threadArcs place them
				}
				for _, k := range ws {
					if k.node == v.last.node {
						continue
					}
					if int64(len(cs)) >= limit {
						return nil, d.budgetError(fmt.Sprintf("the polygraph has more than %d choices (writers to place around the reads of their variable), more than the search holds", limit))
					}
					cs = append(cs, choice{k: k.node, w: w, r: r.reader, x: int32(x), kLine: k.line, wLine: r.from.line, rLine: r.line})
				}
			}
		}
	}
	return cs, nil
}
