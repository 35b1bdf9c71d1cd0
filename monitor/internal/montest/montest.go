// Package montest holds the test helpers that monitor and its packages
// (fsm, graph, pass) share, so that each is written once.
package montest

import "github.com/conc-dev/conc/model"

// HasCycle is a depth-first search for a back edge in adj, the naive
// check the monitors' cycle detection is compared with.
func HasCycle(adj [][]bool) bool {
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

// FlipLock is t's acq of lock l when it is free, its rel when t holds it
// (owner[l] follows); ok is false when another thread holds it.
func FlipLock(owner []int, l, t int) (op model.Op, ok bool) {
	switch owner[l] {
	case -1:
		owner[l] = t
		return model.OpAcquire, true
	case t:
		owner[l] = -1
		return model.OpRelease, true
	}
	return 0, false
}
