package graph

import "github.com/conc-dev/conc/model"

// findCycle looks for a cycle through one of the edges g.edges[first:], all
// of which enter n. If the graph was acyclic before, every new cycle uses such
// an edge m -> n, so it exists iff n reaches some new predecessor m; a
// depth-first search from n along out-edges finds the path n ->* m.
//
// The returned cycle starts with the edge out of n on that path and ends with
// the new edge m -> n, so each pair's To event and the next pair's From event
// lie in one transaction.
func (g *Graph) findCycle(n int32, first int) []model.Conflict {
	if !g.hasOut(n) {
		return nil // the common case: nothing leaves n yet
	}
	target := make(map[int32]int, len(g.edges)-first) // new predecessor -> its edge
	for k := first; k < len(g.edges); k++ {
		target[g.edges[k].From] = k
	}
	via := make([]int, len(g.nodes)) // edge by which the search reached a node, +1
	stack := []int32{n}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if k, ok := target[u]; ok && u != n {
			g.cyclic = true
			return g.pathTo(n, u, via, k)
		}
		for k, e := range g.edges {
			if e.From == u && e.To != n && via[e.To] == 0 {
				via[e.To] = k + 1
				stack = append(stack, e.To)
			}
		}
	}
	return nil
}

func (g *Graph) hasOut(n int32) bool {
	for _, e := range g.edges {
		if e.From == n {
			return true
		}
	}
	return false
}

// pathTo unwinds the search tree from m back to n and closes the cycle with
// edge closing (m -> n).
func (g *Graph) pathTo(n, m int32, via []int, closing int) []model.Conflict {
	var rev []model.Conflict
	for v := m; v != n; {
		e := g.edges[via[v]-1]
		rev = append(rev, e.Pair)
		v = e.From
	}
	cyc := make([]model.Conflict, 0, len(rev)+1)
	for k := len(rev) - 1; k >= 0; k-- {
		cyc = append(cyc, rev[k])
	}
	return append(cyc, g.edges[closing].Pair)
}

// collect drops completed source transaction n and, transitively, every
// completed transaction left without incoming edges (Velodrome's garbage
// collection; see the package doc for why no future cycle is lost).
func (g *Graph) collect(n int32) {
	dead := make([]bool, len(g.nodes))
	work := []int32{n}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		dead[u] = true
		for _, e := range g.edges {
			if e.From != u {
				continue
			}
			to := &g.nodes[e.To]
			if to.InDeg--; to.InDeg == 0 && !to.Open && !dead[e.To] {
				work = append(work, e.To)
			}
		}
	}
	g.compact(dead)
}

// compact removes the dead nodes with their edges and access records and
// renumbers the rest, keeping creation order.
func (g *Graph) compact(dead []bool) {
	renum := make([]int32, len(g.nodes))
	nodes := g.nodes[:0]
	for v, nd := range g.nodes {
		renum[v] = -1
		if !dead[v] {
			renum[v] = int32(len(nodes))
			nodes = append(nodes, nd)
		}
	}
	g.nodes = nodes
	edges := g.edges[:0]
	for _, e := range g.edges {
		if !dead[e.From] && !dead[e.To] {
			e.From, e.To = renum[e.From], renum[e.To]
			edges = append(edges, e)
		}
	}
	g.edges = edges
	accs := g.accs[:0]
	for _, a := range g.accs {
		if !dead[a.Node] {
			a.Node = renum[a.Node]
			accs = append(accs, a)
		}
	}
	g.accs = accs
	for t, c := range g.cur {
		if c >= 0 {
			g.cur[t] = renum[c]
		}
	}
}
