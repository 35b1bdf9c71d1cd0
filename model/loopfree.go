package model

// Acyclic reports whether no cycle passes through a state reachable from
// Init (epsilon edges included): every run of the thread is then finite,
// as long as its longest path. An edge q → r closes a cycle iff r does not
// come before q in the depth-first postorder (a back edge or a self-loop).
func (a *Automaton) Acyclic() bool {
	order := a.PostOrder(false)
	rank := make([]int32, a.NumStates()) // postorder index + 1; 0 for unreachable states
	for i, q := range order {
		rank[q] = int32(i + 1)
	}
	for _, q := range order {
		for _, e := range a.Out[q] {
			if rank[e.To] >= rank[q] {
				return false
			}
		}
	}
	return true
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
