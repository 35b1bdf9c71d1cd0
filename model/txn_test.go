package model

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TxnCounter on one run that has every case: nesting, a stray end, an
// access and a lock event outside any transaction, two threads.
func TestTxnCounter(t *testing.T) {
	step := func(thread int32, op Op) Step { return Step{Thread: thread, Ev: Event{Op: op}} }
	run := []Step{
		step(0, OpBegin), step(0, OpBegin), step(0, OpRead), step(0, OpEnd), step(0, OpAcquire), step(0, OpEnd),
		step(1, OpWrite), step(1, OpAcquire), step(1, OpEnd), step(0, OpBegin), step(0, OpEnd),
	}
	type answer struct{ txn, nth int }
	for _, tc := range []struct {
		lockEdges bool
		want      []answer
	}{
		{false, []answer{{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {1, 1}, {-1, 0}, {-1, 0}, {2, 2}, {2, 2}}},
		{true, []answer{{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {1, 1}, {2, 2}, {-1, 0}, {3, 2}, {3, 2}}},
	} {
		c := NewTxnCounter(tc.lockEdges, 2)
		var got []answer
		var fresh []int
		for i, s := range run {
			txn, nth, f := c.Step(s)
			got = append(got, answer{txn, nth})
			if f {
				fresh = append(fresh, i)
			}
		}
		require.Equal(t, tc.want, got, "lock edges %v", tc.lockEdges)
		if tc.lockEdges {
			require.Equal(t, []int{0, 6, 7, 9}, fresh)
		} else {
			require.Equal(t, []int{0, 6, 9}, fresh)
		}
	}
}
