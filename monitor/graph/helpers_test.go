package graph

// naiveHasCycle is a depth-first search for a back edge. (The trace
// monitor's naive check has its own.)
func naiveHasCycle(adj [][]bool) bool {
	color := make([]int, len(adj)) // 0 new, 1 on the stack, 2 done
	var visit func(int) bool
	visit = func(i int) bool {
		color[i] = 1
		for j, e := range adj[i] {
			if e && (color[j] == 1 || color[j] == 0 && visit(j)) {
				return true
			}
		}
		color[i] = 2
		return false
	}
	for i := range adj {
		if color[i] == 0 && visit(i) {
			return true
		}
	}
	return false
}
