package view

import "slices"

// The one-variable case (Wang and Stoller's Theorem 3 for one observed
// trace; docs/traces.md, "View serializability"): when the choices of
// the polygraph all place writers of one variable x, every other
// variable's precedences are arcs, and deciding is ordering x's blocks.
// A block is a writer of x with the transactions that read x from it
// (the initial value's readers make block 0); in a serial order the
// blocks follow one another, each reader inside its writer's block. A
// reader that also writes x must be the very next writer: the blocks
// form chains. The trace is view-serializable iff the blocks, chains
// kept whole, can be ordered so that no arc path leads from a block to
// an earlier one: then placing each transaction at the block of its
// nearest block ancestors gives the serial order.

// oneVar is the one-variable case's state: each node's block (-1 for a
// transaction that does not touch x), the chains and the block graph.
type oneVar struct {
	d       *decider
	g       *csr
	x       int32
	blk     []int32 // node -> block, -1 none
	writer  []int32 // block -> its writer node (-1: the initial value's block)
	next    []int32 // block -> the block chained after it, -1 none
	prev    []int32 // block -> the block chained before it, -1 none
	edges   [][2]int32
	work    int64
	limit   int64
	stopped bool
}

// oneVariable decides the polygraph when cs all place writers of one
// variable: ok false when they do not (or the work would exceed the
// budget), else serializable with the nodes' serial order.
func (d *decider) oneVariable(g *csr, topo []int32, cs []choice) (serializable bool, order []int32, ok bool) {
	for _, c := range cs {
		if c.x != cs[0].x {
			return false, nil, false
		}
	}
	o := &oneVar{d: d, g: g, x: cs[0].x, limit: d.maxStates * workPerState}
	if !o.blocks() {
		return false, nil, true
	}
	o.blockEdges()
	if o.stopped {
		return false, nil, false
	}
	blocks, acyclic := o.orderBlocks()
	if !acyclic {
		return false, nil, true
	}
	return true, o.serial(topo, blocks), true
}

// blocks assigns each transaction touching x its block and chains the
// blocks; false when two readers of one write both write x (each would
// have to be the next writer).
func (o *oneVar) blocks() bool {
	b := o.d.b
	v := &b.vars[o.x]
	o.blk = make([]int32, len(b.nodes))
	for i := range o.blk {
		o.blk[i] = -1
	}
	o.writer = []int32{-1}
	for _, w := range v.writers {
		o.blk[w.node] = int32(len(o.writer))
		o.writer = append(o.writer, w.node)
	}
	n := len(o.writer)
	o.next, o.prev = make([]int32, n), make([]int32, n)
	for i := range n {
		o.next[i], o.prev[i] = -1, -1
	}
	for _, r := range v.reads {
		from := int32(0)
		if r.from.node >= 0 {
			from = o.blk[r.from.node]
		}
		own := o.blk[r.reader]
		if own < 0 {
			o.blk[r.reader] = from
			continue
		}
		if o.next[from] >= 0 {
			return false
		}
		o.next[from], o.prev[own] = own, from
	}
	return true
}

// blockEdges finds, from each transaction of a block, the blocks of the
// transactions of x it reaches through transactions that do not touch x.
func (o *oneVar) blockEdges() {
	g := o.g
	n := g.nodes()
	seen := make([]int32, n)
	for i := range seen {
		seen[i] = -1
	}
	for a := range n {
		ba := o.blk[a]
		if ba < 0 {
			continue
		}
		stack := []int32{int32(a)}
		seen[a] = int32(a)
		for len(stack) > 0 && !o.stopped {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			row := g.to[g.off[v]:g.off[v+1]]
			if o.work += int64(len(row) + 1); o.work > o.limit {
				o.stopped = true
			}
			for _, t := range row {
				if seen[t] == int32(a) {
					continue
				}
				seen[t] = int32(a)
				if bt := o.blk[t]; bt >= 0 {
					if bt != ba {
						o.edges = append(o.edges, [2]int32{ba, bt})
					}
					continue
				}
				stack = append(stack, t)
			}
		}
	}
}

// orderBlocks orders the chains topologically by the block edges, each
// chain's blocks in a row, the final writer's chain last; false when no
// order exists (a cycle, or an edge back within a chain).
func (o *oneVar) orderBlocks() ([]int32, bool) {
	head, pos, ok := o.chains()
	if !ok {
		return nil, false
	}
	for _, e := range o.edges {
		if head[e[0]] == head[e[1]] && pos[e[0]] > pos[e[1]] {
			return nil, false
		}
	}
	heads, ok := o.chainGraph(head).topo()
	if !ok {
		return nil, false
	}
	var blocks []int32
	for _, h := range heads {
		if head[h] != h {
			continue
		}
		for c := h; c >= 0; c = o.next[c] {
			blocks = append(blocks, c)
		}
	}
	return blocks, true
}

// chains gives each block its chain's head and its place in the chain;
// false when chains close a cycle (blocks no head reaches).
func (o *oneVar) chains() (head, pos []int32, ok bool) {
	n := len(o.writer)
	head, pos = make([]int32, n), make([]int32, n)
	reached := make([]bool, n)
	for i := range n {
		if o.prev[i] >= 0 {
			continue
		}
		p := int32(0)
		for c := int32(i); c >= 0; c = o.next[c] {
			head[c], pos[c], reached[c] = int32(i), p, true
			p++
		}
	}
	for i := range n {
		if !reached[i] {
			return nil, nil, false
		}
	}
	return head, pos, true
}

// chainGraph is the graph of the chains (by their heads): the block
// edges between chains, the initial value's chain before every other,
// the final writer's after every other.
func (o *oneVar) chainGraph(head []int32) *csr {
	n := len(o.writer)
	final := head[o.blk[o.d.b.vars[o.x].last.node]]
	return buildCSR(n, func(add func(from, to, id int32)) {
		for _, e := range o.edges {
			if head[e[0]] != head[e[1]] {
				add(head[e[0]], head[e[1]], -1)
			}
		}
		for i := range int32(n) {
			if head[i] == i && i != final {
				add(i, final, -1)
			}
			if head[i] == i && i != head[0] {
				add(head[0], i, -1)
			}
		}
	}, false)
}

// serial is the serial order: each transaction at the place of its block,
// or, off x, of the latest block among the transactions of x that reach
// it; a block's writer first, the rest in the arcs' topological order.
func (o *oneVar) serial(topo []int32, blocks []int32) []int32 {
	n := o.g.nodes()
	place := make([]int32, len(blocks))
	for i, bk := range blocks {
		place[bk] = int32(i)
	}
	level := make([]int32, n)
	for _, v := range topo {
		if bk := o.blk[v]; bk >= 0 {
			level[v] = place[bk]
		}
		for _, t := range o.g.to[o.g.off[v]:o.g.off[v+1]] {
			if o.blk[t] < 0 {
				level[t] = max(level[t], level[v])
			}
		}
	}
	rank := make([]int32, n)
	for i, v := range topo {
		rank[v] = int32(i)
	}
	order := slices.Clone(topo)
	isWriter := func(v int32) bool { return o.blk[v] >= 0 && o.writer[o.blk[v]] == v }
	slices.SortStableFunc(order, func(a, b int32) int {
		if level[a] != level[b] {
			return int(level[a] - level[b])
		}
		if wa, wb := isWriter(a), isWriter(b); wa != wb {
			if wa {
				return -1
			}
			return 1
		}
		return int(rank[a] - rank[b])
	})
	return order
}
