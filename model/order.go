package model

// PostOrder lists states in the postorder of a depth-first search: from
// Init only (the reachable states), or from every state in turn when
// everyState is set. Where the graph allows, successors come before their
// predecessors, which the engines' backward passes rely on. The search is
// iterative: automata may have millions of states.
func (a *Automaton) PostOrder(everyState bool) []int32 {
	n := a.NumStates()
	seen := make([]bool, n)
	order := make([]int32, 0, n)
	type frame struct {
		q    int32
		next int
	}
	var stack []frame
	visit := func(r int32) {
		if seen[r] {
			return
		}
		seen[r] = true
		stack = append(stack[:0], frame{r, 0})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < len(a.Out[f.q]) {
				to := a.Out[f.q][f.next].To
				f.next++
				if !seen[to] {
					seen[to] = true
					stack = append(stack, frame{to, 0})
				}
				continue
			}
			order = append(order, f.q)
			stack = stack[:len(stack)-1]
		}
	}
	if !everyState {
		visit(a.Init)
		return order
	}
	for r := range n {
		visit(int32(r))
	}
	return order
}
