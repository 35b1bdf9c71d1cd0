package profiles

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// callSites is what lang compiles `atomic { repeat n { call nest } }` with
// `proc nest { choose { skip } or { read x; call nest; write x } }` to: n
// call sites at the top level, each pushing its own return symbol, so
// nest's exit has n+1 pop edges.
func callSites(n int) *model.Automaton {
	const entry, exit, mid, back = 0, 1, 2, 3 // nest's states
	top := int32(4)                           // the top level: top+k before call k
	states := int(top) + n + 3                // and Init, and the final state
	a := &model.Automaton{Init: top + int32(n) + 1, Out: make([][]model.Edge, states), InTxn: make([]bool, states), Held: make([][]int32, states)}
	skip := model.Event{Op: model.OpSkip, Target: -1}
	a.Out[a.Init] = []model.Edge{{To: top, Ev: model.Event{Op: model.OpBegin, Target: -1}}}
	for k := range int32(n) {
		a.Out[top+k] = []model.Edge{{To: entry, Ev: skip, Stack: model.StackPush, Sym: k}}
		a.Out[exit] = append(a.Out[exit], model.Edge{To: top + k + 1, Ev: skip, Stack: model.StackPop, Sym: k})
	}
	a.Out[top+int32(n)] = []model.Edge{{To: int32(states - 1), Ev: model.Event{Op: model.OpEnd, Target: -1}}}
	rec := int32(n)
	a.Out[entry] = []model.Edge{{To: exit, Ev: skip}, {To: mid, Ev: model.Event{Op: model.OpRead, Target: 0}}}
	a.Out[mid] = []model.Edge{{To: entry, Ev: skip, Stack: model.StackPush, Sym: rec}}
	a.Out[exit] = append(a.Out[exit], model.Edge{To: back, Ev: skip, Stack: model.StackPop, Sym: rec})
	a.Out[back] = []model.Edge{{To: exit, Ev: model.Event{Op: model.OpWrite, Target: 0}}}
	for q := range a.InTxn {
		a.InTxn[q] = q != int(a.Init) && q != states-1
	}
	return a
}

// saturationScans is the work of one saturation of a, counted: the edges,
// exits and callers it looked at. A count, not a time, so the complexity
// guards below hold on any machine (thread CPU time ticks too coarsely on
// some to time a few milliseconds).
func saturationScans(a *model.Automaton) (int, *Profiles) {
	s := newSaturation(a, 1)
	if err := s.saturate(); err != nil {
		panic(err)
	}
	p, err := ExtractPushdown(a, 1)
	if err != nil {
		panic(err)
	}
	return s.scans, p
}

// TestCallSitesLinear: ten times the call sites cost about ten times the
// saturation's work, not a hundred (a saturation that scans every pop
// edge or caller at each call and return is quadratic: 30,000 sites take
// 8.6 s, 100,000 more than a minute). The profiles are those of the recursion: ▷ r w ◁, r and
// w in any order across calls, all in one transaction.
func TestCallSitesLinear(t *testing.T) {
	small, ps := saturationScans(callSites(2_000))
	big, pb := saturationScans(callSites(20_000))
	t.Logf("2,000 sites: %d scans; 20,000 sites: %d scans", small, big)
	require.Equal(t, ps.List(), pb.List())
	require.True(t, pb.Has(Profile{KindSame, 0, 1}))
	require.True(t, pb.Has(Profile{KindSame, 1, 0}))
	require.False(t, pb.Has(Profile{KindDiff, 0, 1}))
	require.Less(t, big, 11*small, "more than linear in the call sites")
}

// pathScans is the work of one PushdownPath for ▷ r ◁ ▷ w ◁ in a, which
// is not a profile: the search saturates everything.
func pathScans(t *testing.T, a *model.Automaton) int {
	s := newPathSearch(a, Profile{KindDiff, 0, 1})
	require.False(t, s.saturate())
	return s.scans
}

// TestCallSitesLinearPath: the witness search (PushdownPath) has the call
// rule too, and the same index (scanning every pop edge or caller, the
// ratio would be about 93).
func TestCallSitesLinearPath(t *testing.T) {
	small, big := pathScans(t, callSites(2_000)), pathScans(t, callSites(20_000))
	t.Logf("2,000 sites: %d scans; 20,000 sites: %d scans", small, big)
	require.Less(t, big, 11*small, "more than linear in the call sites")
}

// BenchmarkPushdownCallSites: 30,000 call sites of one recursive
// procedure (8.6 s before the index).
func BenchmarkPushdownCallSites(b *testing.B) {
	a := callSites(30_000)
	for b.Loop() {
		if _, err := Extract(a, 1); err != nil {
			b.Fatal(err)
		}
	}
}
