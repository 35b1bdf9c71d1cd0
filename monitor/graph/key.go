package graph

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"
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
	sc := keyPool.Get().(*keyScratch)
	defer keyPool.Put(sc)
	b = append(b, flag(g.lockEdges), flag(g.cyclic))
	sc.adjacency(g)
	for t, o := range g.cur {
		if o < 0 {
			continue
		}
		b = binary.AppendUvarint(b, uint64(t))
		b = binary.AppendUvarint(b, uint64(g.nest[t]))
		reach := sc.reachFrom(o)
		own, sig := sc.own[:0], sc.sig[:0]
		for _, a := range g.accs {
			code := uint64(a.Target)<<3 | uint64(a.Kind)
			if a.Node == o {
				own = append(own, code)
			} else if has(reach, a.Node) {
				sig = append(sig, code)
			}
		}
		own = append(own, threadCode(g.nodes[o].Thread))
		for v, nd := range g.nodes {
			if int32(v) != o && has(reach, int32(v)) {
				sig = append(sig, threadCode(nd.Thread))
			}
		}
		b = appendCodes(b, own)
		b = appendCodes(b, sig)
		sc.own, sc.sig = own, sig
		for u, p := range g.cur { // the open transactions o reaches
			if p >= 0 && p != o && has(reach, p) {
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

// threadCode is the signature code of membership in thread t: later events
// of t conflict with every transaction of t (and a join of t with them).
func threadCode(t int32) uint64 { return uint64(t)<<3 | 4 }

// keyScratch holds AppendKey's buffers between calls; searches call it once
// per configuration, so it must not allocate.
type keyScratch struct {
	adj      []uint64 // adjacency: one row of w words per node
	reach    []uint64 // w words
	w        int
	stack    []int32
	own, sig []uint64
}

var keyPool = sync.Pool{New: func() any { return new(keyScratch) }}

// adjacency fills the bit rows of g's edges.
func (sc *keyScratch) adjacency(g *Graph) {
	sc.w = (len(g.nodes) + 63) / 64
	sc.adj = zeroed(sc.adj, len(g.nodes)*sc.w)
	for _, e := range g.edges {
		sc.adj[int(e.From)*sc.w+int(e.To)/64] |= 1 << (e.To % 64)
	}
}

// reachFrom returns the set of nodes reachable from o, o included.
func (sc *keyScratch) reachFrom(o int32) []uint64 {
	w := sc.w
	sc.reach = zeroed(sc.reach, w)
	sc.reach[o/64] |= 1 << (o % 64)
	stack := append(sc.stack[:0], o)
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for x, row := range sc.adj[int(u)*w : int(u+1)*w] {
			fresh := row &^ sc.reach[x]
			sc.reach[x] |= fresh
			for ; fresh != 0; fresh &= fresh - 1 {
				stack = append(stack, int32(x*64+bits.TrailingZeros64(fresh)))
			}
		}
	}
	sc.stack = stack
	return sc.reach
}

func has(set []uint64, v int32) bool { return set[v/64]&(1<<(v%64)) != 0 }

// zeroed returns buf resized to n zero words.
func zeroed(buf []uint64, n int) []uint64 {
	if cap(buf) < n {
		return make([]uint64, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
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
