package monitor

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// A node is three cache lines, so that in a line-aligned chunk the fields
// read for every new edge and record check share one line.
func TestTraceTxnLayout(t *testing.T) {
	require.Equal(t, uintptr(192), unsafe.Sizeof(traceTxn{}))
	require.Less(t, unsafe.Offsetof(traceTxn{}.thread), uintptr(64))
	require.Less(t, unsafe.Offsetof(traceTxn{}.begin), uintptr(64))
}

// Recycled transactions come back zeroed, with empty edge slices that keep
// the capacity they had grown.
func TestTxnArenaRecycles(t *testing.T) {
	var a txnArena
	x := a.alloc()
	require.Empty(t, x.out)
	for i := 0; i < 10; i++ {
		x.out = append(x.out, traceEdge{from: int64(i)})
	}
	x.mask, x.dead, x.begin = 7, true, 42
	a.release(x)
	require.Equal(t, int64(neverBegun), x.begin, "records naming a free node are stale")
	y := a.alloc()
	require.Same(t, x, y)
	require.Empty(t, y.out)
	require.GreaterOrEqual(t, cap(y.out), 10)
	require.Zero(t, y.mask)
	require.False(t, y.dead)
	require.Zero(t, y.begin)
	require.Len(t, y.in, 0)
	require.NotSame(t, y, a.alloc())
}
