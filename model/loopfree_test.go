package model

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// TestLoopFree: acyclic automata without a stack are loop-free; a loop, an
// epsilon self-loop or a push is not. Unreachable cycles do not count.
func TestLoopFree(t *testing.T) {
	skip := Event{Op: OpSkip, Target: -1}
	line := chain(Event{Op: OpBegin, Target: -1}, Event{Op: OpRead}, Event{Op: OpEnd, Target: -1})
	require.True(t, line.Acyclic())

	diamond := chain(skip, skip) // 0 → 1 → 2, and 0 → 2
	diamond.Out[0] = append(diamond.Out[0], Edge{To: 2, Ev: skip})
	require.True(t, diamond.Acyclic(), "a join of two branches is no cycle")

	loop := chain(Event{Op: OpBegin, Target: -1}, Event{Op: OpEnd, Target: -1})
	loop.Out[2] = []Edge{{To: 0, Ev: skip}}
	require.False(t, loop.Acyclic())

	self := chain(skip)
	self.Out[1] = []Edge{{To: 1, Ev: skip}}
	require.False(t, self.Acyclic(), "an epsilon self-loop")

	dead := chain(skip) // state 2, unreachable, loops on itself
	dead.Out = append(dead.Out, []Edge{{To: 2, Ev: skip}})
	require.True(t, dead.Acyclic())

	pd := chain(skip)
	pd.Out[0][0].Stack = StackPush
	prog := func(as ...*Automaton) *Program {
		p := &Program{}
		for _, a := range as {
			p.Threads = append(p.Threads, &Thread{Name: "T", Auto: a})
		}
		return p
	}
	require.True(t, prog(line, diamond, dead).LoopFree())
	require.False(t, prog(line, loop).LoopFree())
	require.False(t, prog(pd).LoopFree(), "a stack makes it recursive")
}

// TestAcyclicAgreesWithPostOrder: on random automata, cyclic or not,
// Acyclic answers as the depth-first test does: an edge from a reachable
// state whose target does not come before it in the postorder closes a
// cycle.
func TestAcyclicAgreesWithPostOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range testflag.N(500, 20000) {
		n := 1 + rng.IntN(12)
		a := &Automaton{Init: int32(rng.IntN(n)), Out: make([][]Edge, n)}
		for q := range n {
			for range rng.IntN(3) {
				a.Out[q] = append(a.Out[q], Edge{To: int32(rng.IntN(n))})
			}
		}
		require.Equal(t, acyclicByPostOrder(a), a.Acyclic(), "%+v", a)
	}
}

// acyclicByPostOrder is the depth-first definition of Acyclic.
func acyclicByPostOrder(a *Automaton) bool {
	order := a.PostOrder(false)
	rank := make([]int, a.NumStates()) // postorder index + 1; 0: unreachable
	for i, q := range order {
		rank[q] = i + 1
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
