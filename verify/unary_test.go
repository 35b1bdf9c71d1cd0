package verify

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// TestUnarySyncForm: with lock edges a lock event outside a transaction is
// a unary transaction, which a witness must write as begin, event, end
// (docs/spec.md §1). A run with the event bare is rejected, by Witness and
// by Prefix, as is a wrapper that is incomplete; without lock edges the
// wrapped run is not a run of the program.
func TestUnarySyncForm(t *testing.T) {
	none, both := []int{-1, -1}, []bool{true, true}
	p := straight(t, "b acq:l rel:l acq:l rel:l e", "acq:l rel:l")
	order := []int{1, 1, 1, 2, 2, 1, 1, 1}
	good := schedule(p, order, []model.Conflict{{From: 2, To: 4}, {From: 4, To: 7}, {From: 7, To: 9}}, true)
	require.NoError(t, Witness(p, good))

	bare := schedule(p, order, []model.Conflict{{From: 2, To: 3}, {From: 3, To: 4}, {From: 4, To: 5}}, false)
	bare.LockEdges = true // the wrong form: T2's acquire and release bare, outside a transaction
	want := "event 3 (T2 acquire l) lies outside any transaction: with lock edges it is a unary transaction, " +
		"which the run must write as begin, acquire l, end"
	require.EqualError(t, Witness(p, bare), want)
	require.EqualError(t, Prefix(namesOnly(p), bare, none, both, nil), want)

	// The end of T2's acquire is missing.
	noEnd := schedule(p, order, good.Cycle, true)
	noEnd.Run = slices.Delete(noEnd.Run, 5, 6)
	require.EqualError(t, Witness(p, noEnd), "thread T2 move 0 emits end (the unary transaction of its acquire l "+
		"outside a transaction: lock edges), but the thread's next run event is event 5 (T2 begin)")

	// Without lock edges the acquire is bare in the program's runs.
	wrapped := schedule(p, order, good.Cycle, true)
	wrapped.LockEdges = false
	require.EqualError(t, Witness(p, wrapped), "thread T2 move 0 emits acquire l, but the thread's next run event is event 3 (T2 begin)")

	// Fork and join outside a transaction are unary transactions too.
	p = straight(t, "fork:T2 b r:x r:x e join:T2", "b w:x e")
	fj := schedule(p, []int{1, 1, 1, 2, 2, 2, 1, 1, 1}, []model.Conflict{{From: 4, To: 6}, {From: 6, To: 8}}, true)
	require.Equal(t, model.OpBegin, fj.Run[0].Ev.Op)
	require.NoError(t, Witness(p, fj))
	require.NoError(t, Prefix(namesOnly(p), fj, []int{-1, 0}, both, nil))
	fj.Run = slices.Delete(fj.Run, 0, 1)
	fj.Run = slices.Delete(fj.Run, 1, 2)
	require.ErrorContains(t, Witness(p, fj), "event 0 (T1 fork T2) lies outside any transaction")
}
