package verify

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// TestTransactionsOfTheCycle: the scan's transactions (txn.go) flatten
// nested begins to the outermost, make each access outside a transaction
// its own, and put a sync event without lock edges, or an end with none
// open, in none.
func TestTransactionsOfTheCycle(t *testing.T) {
	// T2's write between T1's read and write: one cycle T1 -> T2 -> T1.
	cyc := []model.Conflict{{From: 2, To: 4}, {From: 4, To: 7}}
	order := []int{1, 1, 1, 2, 2, 2, 1, 1, 1}

	p := straight(t, "b b r:x e w:x e", "b w:x e") // nested: one transaction
	require.NoError(t, Witness(p, schedule(p, order, cyc, false)))
	require.NoError(t, Prefix(namesOnly(p), schedule(p, order, cyc, false), []int{-1, -1}, []bool{true, true}, nil))

	p = straight(t, "b e r:x b w:x e", "b w:x e") // a unary read, then a transaction
	require.EqualError(t, Witness(p, schedule(p, order, cyc, false)),
		"the cycle does not close: event 7 (T1 write x) and event 2 (T1 read x) are in different transactions")

	p = straight(t, "e e r:x e w:x e", "b w:x e") // stray ends; two unary accesses
	require.EqualError(t, Witness(p, schedule(p, order, cyc, false)),
		"the cycle does not close: event 7 (T1 write x) and event 2 (T1 read x) are in different transactions")

	p = straight(t, "b e acq:l r:x rel:l", "b w:x e")
	require.EqualError(t, Witness(p, schedule(p, []int{1, 1, 1, 2, 2, 2, 1}, []model.Conflict{{From: 2, To: 4}}, false)),
		"cycle pair 0 (2 -> 4): event 2 (T1 acquire l) belongs to no transaction")
}
