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

// spreadIn lends out's inline edge to the in-list while out is empty; the
// out-list must then grow a slice of its own, and a recycled node must not
// come back with both lists in its inline buffer, where they would
// overwrite each other.
func TestSpreadInKeepsListsApart(t *testing.T) {
	var a txnArena
	x := a.alloc()
	in := []traceEdge{{from: 1}, {from: 2}, {from: 3}}
	x.in = append(x.in, in[0])
	x.spreadIn()
	x.in = append(x.in, in[1])
	require.True(t, x.owns(x.in), "two in-edges, both inline")
	x.out = append(x.out, traceEdge{from: 9})
	require.False(t, x.owns(x.out))
	require.Equal(t, in[:2], x.in)
	a.release(x)
	y := a.alloc()
	require.Same(t, x, y)
	y.in = append(y.in, in[2])
	y.out = append(y.out, traceEdge{from: 8})
	require.Equal(t, in[2:], y.in)
	require.Equal(t, []traceEdge{{from: 8}}, y.out)
	// An in-list with a slice of its own is left alone.
	z := a.alloc()
	z.in = append(make([]traceEdge, 0, 4), in[0])
	z.spreadIn()
	require.False(t, z.owns(z.in))
	require.True(t, z.owns(z.out))
}
