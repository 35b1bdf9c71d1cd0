package sites

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// TestTrackerFirstAccesses: the tracker holds the first access of each
// letter of an open transaction, by its edge (an access outside a
// transaction is three edges: its unary begin and end), and forgets a
// transaction once the next begins.
func TestTrackerFirstAccesses(t *testing.T) {
	evs := []trace.Event{
		{Thread: 0, Op: model.OpWrite, Target: 1, Loc: -1, Line: 1}, // edges 0-2: unary
		{Thread: 0, Op: model.OpBegin, Line: 2},                     // edge 3
		{Thread: 0, Op: model.OpRead, Target: 0, Loc: 7, Line: 3},   // edge 4: first r(0)
		{Thread: 0, Op: model.OpRead, Target: 0, Loc: 8, Line: 4},   // edge 5: r(0) again
		{Thread: 0, Op: model.OpWrite, Target: 0, Loc: 9, Line: 5},  // edge 6: first w(0)
	}
	tr := NewTracker(1)
	for x := range evs {
		tr.Step(&evs[x])
	}
	a, ok := tr.Lookup(0, 4)
	require.True(t, ok)
	require.Equal(t, Access{Edge: 4, Line: 3, Site: Site{Op: model.OpRead, Loc: 7, Target: 0}}, a)
	_, ok = tr.Lookup(0, 5)
	require.False(t, ok, "a letter's second access is not noted")
	a, ok = tr.Lookup(0, 6)
	require.True(t, ok)
	require.Equal(t, int64(5), a.Line)
	_, ok = tr.Lookup(0, 0)
	require.False(t, ok, "an access outside a transaction is not noted")
	tr.Step(&trace.Event{Thread: 0, Op: model.OpBegin, Line: 6})
	_, ok = tr.Lookup(0, 4)
	require.False(t, ok, "the next transaction forgets the last")
}

// TestKeyByLocation: two sites with one location are one signature
// whatever their targets; without a location the target tells them apart.
func TestKeyByLocation(t *testing.T) {
	r := func(loc, target int32) Site { return Site{Op: model.OpRead, Loc: loc, Target: target} }
	require.Equal(t, KeyOf(r(3, 0), r(4, 0)), KeyOf(r(3, 1), r(4, 2)))
	require.NotEqual(t, KeyOf(r(-1, 0), r(-1, 0)), KeyOf(r(-1, 0), r(-1, 1)))
	require.Equal(t, Site{Op: model.OpWrite, Loc: 5, Target: 2}, OfLetter(2*2+1, 5))
}
