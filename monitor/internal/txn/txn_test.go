package txn

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// A node is three cache lines, so that in a line-aligned chunk the fields
// read for every new edge and record check share one line.
func TestTxnLayout(t *testing.T) {
	require.Equal(t, uintptr(192), unsafe.Sizeof(Txn{}))
	require.Less(t, unsafe.Offsetof(Txn{}.Thread), uintptr(64))
	require.Less(t, unsafe.Offsetof(Txn{}.Begin), uintptr(64))
}

// Recycled transactions come back zeroed, with empty edge slices that keep
// the capacity they had grown.
func TestTxnArenaRecycles(t *testing.T) {
	var a Arena
	x := a.Alloc()
	require.Empty(t, x.Out)
	for i := 0; i < 10; i++ {
		x.Out = append(x.Out, Edge{From: int64(i)})
	}
	x.Mask, x.Dead, x.Begin = 7, true, 42
	a.Release(x)
	require.Equal(t, int64(NeverBegun), x.Begin, "records naming a free node are stale")
	y := a.Alloc()
	require.Same(t, x, y)
	require.Empty(t, y.Out)
	require.GreaterOrEqual(t, cap(y.Out), 10)
	require.Zero(t, y.Mask)
	require.False(t, y.Dead)
	require.Zero(t, y.Begin)
	require.Len(t, y.In, 0)
	require.NotSame(t, y, a.Alloc())
}

// SpreadIn lends out's inline edge to the in-list while out is empty; the
// out-list must then grow a slice of its own, and a recycled node must not
// come back with both lists in its inline buffer, where they would
// overwrite each other.
func TestSpreadInKeepsListsApart(t *testing.T) {
	var a Arena
	x := a.Alloc()
	in := []Edge{{From: 1}, {From: 2}, {From: 3}}
	x.In = append(x.In, in[0])
	x.SpreadIn()
	x.In = append(x.In, in[1])
	require.True(t, x.Owns(x.In), "two in-edges, both inline")
	x.Out = append(x.Out, Edge{From: 9})
	require.False(t, x.Owns(x.Out))
	require.Equal(t, in[:2], x.In)
	a.Release(x)
	y := a.Alloc()
	require.Same(t, x, y)
	y.In = append(y.In, in[2])
	y.Out = append(y.Out, Edge{From: 8})
	require.Equal(t, in[2:], y.In)
	require.Equal(t, []Edge{{From: 8}}, y.Out)
	// An in-list with a slice of its own is left alone.
	z := a.Alloc()
	z.In = append(make([]Edge, 0, 4), in[0])
	z.SpreadIn()
	require.False(t, z.Owns(z.In))
	require.True(t, z.Owns(z.Out))
}
