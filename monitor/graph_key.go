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
// same continuations. It is the abstraction of the bounded-space monitor of
// Farzan and Madhusudan (CAV 2008): per open transaction o (by thread), its
// own signature, the union of the signatures of the other transactions that
// o reaches, and which open transactions o reaches. A signature is what a
// later event can conflict with: the transaction's thread, the variables it
// read and wrote, and with lock edges the locks it released and the threads
// it forked.
//
// Why this suffices: a completed transaction m gets no new incoming edge, so
// a future cycle through m enters it along a path that exists now, from some
// open transaction o (going backwards along the cycle, the last new edge
// enters a transaction that was open when it was added, and it cannot be a
// future one, which has no old edges out). So m matters only as part of
// "o reaches m", and a later event conflicting with m's signature makes o
// reach that event's transaction, whichever m it was. A completed
// transaction reached from no open one lies on no future cycle. Run indices
// (the witnesses of edges) do not change the future either.
func (g *Graph) AppendKey(b []byte) []byte {
	b = append(b, flag(g.lockEdges), flag(g.cyclic))
	out := g.successors()
	for t, o := range g.cur {
		if o < 0 {
			continue
		}
		b = binary.AppendUvarint(b, uint64(t))
		b = binary.AppendUvarint(b, uint64(g.nest[t]))
		b = appendCodes(b, g.signature(nil, o))
		reached := g.reach(out, o)
		var sig []uint64
		for v, r := range reached {
			if r && int32(v) != o {
				sig = g.signature(sig, int32(v))
			}
		}
		b = appendCodes(b, sig)
		for u, p := range g.cur { // the open transactions o reaches
			if p >= 0 && p != o && reached[p] {
				b = binary.AppendUvarint(b, uint64(u)+1)
			}
		}
		b = append(b, 0)
	}
	return b
}

func flag(f bool) byte {
	if f {
		return 1
	}
	return 0
}

// successors lists each live node's out-neighbours.
func (g *Graph) successors() [][]int32 {
	out := make([][]int32, len(g.nodes))
	for _, e := range g.edges {
		out[e.From] = append(out[e.From], e.To)
	}
	return out
}

// reach marks the nodes reachable from o (o included).
func (g *Graph) reach(out [][]int32, o int32) []bool {
	seen := make([]bool, len(g.nodes))
	seen[o] = true
	stack := []int32{o}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range out[u] {
			if !seen[v] {
				seen[v] = true
				stack = append(stack, v)
			}
		}
	}
	return seen
}

// signature appends node v's signature codes to sig: one per access record
// (target<<3 | kind) and one for its thread (thread<<3 | 4).
func (g *Graph) signature(sig []uint64, v int32) []uint64 {
	for _, a := range g.accs {
		if a.Node == v {
			sig = append(sig, uint64(a.Target)<<3|uint64(a.Kind))
		}
	}
	return append(sig, uint64(g.nodes[v].Thread)<<3|4)
}

// appendCodes appends a set of codes, sorted and without duplicates.
func appendCodes(b []byte, codes []uint64) []byte {
	slices.Sort(codes)
	codes = slices.Compact(codes)
	b = binary.AppendUvarint(b, uint64(len(codes)))
	for _, c := range codes {
		b = binary.AppendUvarint(b, c)
	}
	return b
}
