package model

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func chain(evs ...Event) *Automaton {
	a := &Automaton{Out: make([][]Edge, len(evs)+1)}
	for i, e := range evs {
		a.Out[i] = []Edge{{To: int32(i + 1), Ev: e}}
	}
	return a
}

func TestClassOf(t *testing.T) {
	line := chain(Event{Op: OpBegin, Target: -1}, Event{Op: OpRead}, Event{Op: OpEnd, Target: -1})
	require.Equal(t, StraightLine, ClassOf(line))

	loop := chain(Event{Op: OpBegin, Target: -1}, Event{Op: OpEnd, Target: -1})
	loop.Out[2] = []Edge{{To: 0, Ev: Event{Op: OpSkip, Target: -1}}}
	require.Equal(t, Regular, ClassOf(loop))

	branch := chain(Event{Op: OpSkip, Target: -1})
	branch.Out[0] = append(branch.Out[0], Edge{To: 1, Ev: Event{Op: OpSkip, Target: -1}})
	require.Equal(t, Regular, ClassOf(branch))

	pd := chain(Event{Op: OpSkip, Target: -1})
	pd.Out[0][0].Stack = StackPush
	require.Equal(t, Recursive, ClassOf(pd))
	require.True(t, pd.Pushdown())

	p := &Program{Threads: []*Thread{{Name: "A", Auto: line}, {Name: "B", Auto: loop}}}
	require.Equal(t, Regular, p.Class())
}

// DropSync turns lock, fork and join events into epsilon moves, keeps the
// original untouched, and keeps identical threads sharing one automaton.
func TestDropSync(t *testing.T) {
	a := chain(Event{Op: OpAcquire, Target: 0}, Event{Op: OpRead, Target: 0}, Event{Op: OpRelease, Target: 0})
	b := chain(Event{Op: OpFork, Target: 0}, Event{Op: OpJoin, Target: 0})
	p := &Program{Threads: []*Thread{{Name: "W[0]", Auto: a}, {Name: "W[1]", Auto: a}, {Name: "M", Auto: b}},
		Vars: []string{"x"}, Locks: []string{"m"}}
	require.True(t, p.HasSync())
	require.Equal(t, []int{2, -1, -1}, p.ForkedBy())

	q := DropSync(p)
	require.False(t, q.HasSync())
	require.True(t, p.HasSync(), "the original keeps its events")
	require.Same(t, q.Threads[0].Auto, q.Threads[1].Auto)
	require.Equal(t, OpRead, q.Threads[0].Auto.Out[1][0].Ev.Op)
	require.Equal(t, OpSkip, q.Threads[2].Auto.Out[0][0].Ev.Op)
}

func TestNames(t *testing.T) {
	names := map[string]Op{} // every op has a name of its own
	for o := OpSkip; o <= OpJoin; o++ {
		require.NotContains(t, names, o.String())
		require.NotEqual(t, "op?", o.String())
		names[o.String()] = o
	}
	require.Equal(t, "a.conc:3:7", Pos{File: "a.conc", Line: 3, Col: 7}.String())
	require.Equal(t, "t.std:12", Pos{File: "t.std", Line: 12}.String())
	require.Equal(t, "-", Pos{}.String())

	p := &Program{Vars: []string{"x"}, Locks: []string{"m"}, Threads: []*Thread{{Name: "T"}}}
	require.Equal(t, "x", p.TargetName(Event{Op: OpWrite, Target: 0}))
	require.Equal(t, "m", p.TargetName(Event{Op: OpRelease, Target: 0}))
	require.Equal(t, "T", p.TargetName(Event{Op: OpJoin, Target: 0}))
	require.Equal(t, "", p.TargetName(Event{Op: OpBegin, Target: -1}))
}
