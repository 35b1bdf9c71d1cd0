package model

// Acyclic reports whether no cycle passes through a state reachable from
// Init (epsilon edges included): every run of the thread is then finite,
// as long as its longest path. It peels the reachable states of in-degree
// zero (Kahn's algorithm): a cycle's states are never peeled. Unlike a
// depth-first search its stack holds only the peelable frontier, not a
// path: a straight line of 10^7 states costs two flat arrays, where the
// search's stack of 10^7 frames grew by copies, each charged with the
// collector's work on the automaton's pointers (seconds).
func (a *Automaton) Acyclic() bool {
	indeg := make([]int32, a.NumStates())
	reached := a.countInDegrees(indeg)
	if indeg[a.Init] > 0 {
		return false // Init is on a cycle
	}
	peeled := 0
	for stack := []int32{a.Init}; len(stack) > 0; {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		peeled++
		for _, e := range a.Out[q] {
			if indeg[e.To]--; indeg[e.To] == 0 {
				stack = append(stack, e.To)
			}
		}
	}
	return peeled == reached
}

// countInDegrees fills indeg with the in-degree of each state reachable
// from Init, counting the edges from reachable states only, and returns
// how many states are reachable.
func (a *Automaton) countInDegrees(indeg []int32) int {
	seen := make([]bool, len(indeg))
	seen[a.Init] = true
	reached := 1
	for stack := []int32{a.Init}; len(stack) > 0; {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range a.Out[q] {
			indeg[e.To]++
			if !seen[e.To] {
				seen[e.To] = true
				reached++
				stack = append(stack, e.To)
			}
		}
	}
	return reached
}

// LoopFree reports whether the program has neither loops nor recursion:
// every thread's automaton is acyclic and uses no stack. Such a program has
// finitely many runs, each of bounded length, so a search of all of them
// ends without a depth bound (docs/spec.md §4's --max-depth exists for the
// others).
func (p *Program) LoopFree() bool {
	seen := map[*Automaton]bool{}
	for _, t := range p.Threads {
		if seen[t.Auto] {
			continue
		}
		seen[t.Auto] = true
		if t.Auto.Pushdown() || !t.Auto.Acyclic() {
			return false
		}
	}
	return true
}
