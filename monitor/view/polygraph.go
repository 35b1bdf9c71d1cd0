package view

import "fmt"

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
	return d.finalArcs(hard, x)
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
// one (whose place the arcs fix), unless program order already keeps it
// out of the way. Too many for the budget is an error (Unknown).
func (d *decider) choicesOf() ([]choice, error) {
	b := d.b
	limit := d.maxStates * choicesPerState
	var cs []choice
	for x := range b.vars {
		v := &b.vars[x]
		if len(v.writers) < 2 {
			continue
		}
		for _, r := range v.reads {
			w := r.from.node
			if w < 0 || w == r.reader || w == v.last.node {
				// the initial value's readers and the final write's
				// have their arcs
				continue
			}
			for _, k := range v.writers {
				if k.node == w || k.node == r.reader || k.node == v.last.node || d.aside(k.node, w, r.reader) {
					continue
				}
				if int64(len(cs)) >= limit {
					return nil, d.budgetError(fmt.Sprintf("the polygraph has more than %d choices (writers to place around the reads of their variable), more than the search holds", limit))
				}
				cs = append(cs, choice{k: k.node, w: w, r: r.reader, x: int32(x), kLine: k.line, wLine: r.from.line, rLine: r.line})
			}
		}
	}
	return cs, nil
}

// aside tells whether program order alone keeps writer k out of the way
// of the read of w's write by r: k is a transaction of w's thread before
// w, or of r's thread after r.
func (d *decider) aside(k, w, r int32) bool {
	nk := d.b.nodes[k]
	return (nk.thread == d.b.nodes[w].thread && k < w) || (nk.thread == d.b.nodes[r].thread && k > r)
}
