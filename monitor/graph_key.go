package monitor

import (
	"encoding/binary"
	"slices"
)

// Clone returns an independent copy of g: stepping one does not affect the
// other. Depth-first searches clone at each branch instead of undoing.
func (g *Graph) Clone() *Graph {
	h := &Graph{lockEdges: g.lockEdges, n: g.n, cyclic: g.cyclic}
	h.nodes = slices.Clone(g.nodes)
	h.accs = slices.Clone(g.accs)
	h.edges = slices.Clone(g.edges)
	h.cur = slices.Clone(g.cur)
	h.nest = slices.Clone(g.nest)
	return h
}

// AppendKey appends to b a canonical encoding of everything the graph's
// future depends on: two graphs with equal keys close a cycle on exactly the
// same continuations. That is, per live transaction (ordered by thread, then
// age): its thread, whether it is open, and its set of access records; each
// thread's begin nesting; and reachability between live transactions.
//
// Reachability, not the edges themselves, suffices: a new edge m -> n closes a
// cycle iff n reaches m, and a completed transaction is collected iff it has
// no incoming edge, iff nothing reaches it. Collecting a source keeps
// reachability among the others, since no path runs through a source.
// Run indices (witness events) are left out: they do not change the future.
func (g *Graph) AppendKey(b []byte) []byte {
	b = append(b, flag(g.lockEdges), flag(g.cyclic))
	for t, d := range g.nest {
		if d != 0 {
			b = binary.AppendUvarint(b, uint64(t)+1)
			b = binary.AppendUvarint(b, uint64(d))
		}
	}
	b = append(b, 0)
	order := g.canonicalOrder()
	b = binary.AppendUvarint(b, uint64(len(order)))
	for _, v := range order {
		b = g.appendNode(b, v)
	}
	for _, w := range g.closure(order) {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return b
}

func flag(f bool) byte {
	if f {
		return 1
	}
	return 0
}

// canonicalOrder lists the live nodes by thread, then creation (= time) order.
func (g *Graph) canonicalOrder() []int32 {
	order := make([]int32, len(g.nodes))
	for v := range order {
		order[v] = int32(v)
	}
	slices.SortStableFunc(order, func(u, v int32) int {
		return int(g.nodes[u].Thread) - int(g.nodes[v].Thread)
	})
	return order
}

// appendNode encodes node v: thread, open, and its sorted access records.
func (g *Graph) appendNode(b []byte, v int32) []byte {
	nd := g.nodes[v]
	b = binary.AppendUvarint(b, uint64(nd.Thread))
	b = append(b, flag(nd.Open))
	var codes []uint64
	for _, a := range g.accs {
		if a.Node == v {
			codes = append(codes, uint64(a.Target)<<2|uint64(a.Kind))
		}
	}
	slices.Sort(codes)
	b = binary.AppendUvarint(b, uint64(len(codes)))
	for _, c := range codes {
		b = binary.AppendUvarint(b, c)
	}
	return b
}

// closure is the reachability matrix of the live nodes in canonical order,
// one bit row of ceil(n/64) words per node (Warshall's algorithm).
func (g *Graph) closure(order []int32) []uint64 {
	n := len(order)
	pos := make([]int, n)
	for p, v := range order {
		pos[v] = p
	}
	w := (n + 63) / 64
	rows := make([]uint64, n*w)
	set := func(i, j int) { rows[i*w+j/64] |= 1 << (j % 64) }
	has := func(i, j int) bool { return rows[i*w+j/64]&(1<<(j%64)) != 0 }
	for _, e := range g.edges {
		set(pos[e.From], pos[e.To])
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			if has(i, k) {
				for x := 0; x < w; x++ {
					rows[i*w+x] |= rows[k*w+x]
				}
			}
		}
	}
	return rows
}
