package view

// csr is a static digraph in compressed rows: the arcs out of node v are
// to[off[v]:off[v+1]], and id[i] names arc i's reason (an index into the
// arc list it was built from; -1 when the builder did not keep one).
type csr struct {
	off, to, id []int32
}

// newCSR builds the digraph of n nodes whose arcs each yields, with
// their ids.
func newCSR(n int, each func(add func(from, to, id int32))) *csr {
	return buildCSR(n, each, true)
}

// buildCSR is newCSR, keeping no ids unless withIDs.
func buildCSR(n int, each func(add func(from, to, id int32)), withIDs bool) *csr {
	g := &csr{off: make([]int32, n+1)}
	each(func(from, _, _ int32) { g.off[from+1]++ })
	for v := 0; v < n; v++ {
		g.off[v+1] += g.off[v]
	}
	m := g.off[n]
	g.to = make([]int32, m)
	if withIDs {
		g.id = make([]int32, m)
	}
	fill := append([]int32(nil), g.off[:n]...)
	each(func(from, to, id int32) {
		g.to[fill[from]] = to
		if withIDs {
			g.id[fill[from]] = id
		}
		fill[from]++
	})
	return g
}

func (g *csr) nodes() int { return len(g.off) - 1 }

// topo is a topological order of g, the least node first among those
// ready (so close to the trace's order); ok is false when g has a cycle,
// and order then holds the nodes sorted before it.
func (g *csr) topo() (order []int32, ok bool) {
	n := g.nodes()
	indeg := make([]int32, n)
	for _, t := range g.to {
		indeg[t]++
	}
	var h minHeap
	for v := range n {
		if indeg[v] == 0 {
			h.push(int32(v))
		}
	}
	order = make([]int32, 0, n)
	for len(h) > 0 {
		v := h.pop()
		order = append(order, v)
		for _, t := range g.to[g.off[v]:g.off[v+1]] {
			if indeg[t]--; indeg[t] == 0 {
				h.push(t)
			}
		}
	}
	return order, len(order) == n
}

// cycle finds a short cycle of g, which has one: the arcs (indices into
// g.to) of a shortest cycle through a node that lies on some cycle.
func (g *csr) cycle(sorted []int32) []int32 {
	n := g.nodes()
	done := make([]bool, n)
	for _, v := range sorted {
		done[v] = true
	}
	// Walk back from a node left over: each one left over has a
	// predecessor left over, so the walk closes a cycle.
	pred := make([]int32, n)
	for i := range pred {
		pred[i] = -1
	}
	for v := range n {
		if done[v] {
			continue
		}
		for i := g.off[v]; i < g.off[v+1]; i++ {
			if t := g.to[i]; !done[t] && pred[t] < 0 {
				pred[t] = int32(v)
			}
		}
	}
	v := int32(-1)
	for u := range n {
		if !done[u] && pred[u] >= 0 {
			v = int32(u)
			break
		}
	}
	seen := make([]bool, n)
	for !seen[v] {
		seen[v] = true
		v = pred[v]
	}
	return g.shortestCycle(v, done)
}

// shortestCycle is a shortest cycle through v among the nodes not done,
// by breadth-first search, as the arcs' indices in order.
func (g *csr) shortestCycle(v int32, done []bool) []int32 {
	via := map[int32]int32{} // node -> arc index that reached it
	queue := []int32{v}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for i := g.off[u]; i < g.off[u+1]; i++ {
			t := g.to[i]
			if done[t] {
				continue
			}
			if t == v {
				return g.pathTo(via, v, u, i)
			}
			if _, ok := via[t]; !ok {
				via[t] = i
				queue = append(queue, t)
			}
		}
	}
	return nil // not reached: v lies on a cycle
}

// pathTo is the path from v to u that via records, then arc last.
func (g *csr) pathTo(via map[int32]int32, v, u, last int32) []int32 {
	path := []int32{last}
	for u != v {
		i := via[u]
		path = append(path, i)
		u = g.from(i)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// from is the tail of arc i, by binary search over the rows.
func (g *csr) from(i int32) int32 {
	lo, hi := 0, g.nodes()
	for lo < hi {
		mid := (lo + hi) / 2
		if g.off[mid+1] <= i {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return int32(lo)
}

// minHeap is a binary heap of nodes, least first.
type minHeap []int32

func (h *minHeap) push(v int32) {
	*h = append(*h, v)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if a[p] <= a[i] {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *minHeap) pop() int32 {
	a := *h
	v := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(a) && a[l] < a[m] {
			m = l
		}
		if l+1 < len(a) && a[l+1] < a[m] {
			m = l + 1
		}
		if m == i {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return v
}
