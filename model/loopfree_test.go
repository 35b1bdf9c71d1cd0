package model

import (
	"testing"

	"github.com/stretchr/testify/require"
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
