package montest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

func TestHasCycle(t *testing.T) {
	require.False(t, HasCycle([][]bool{{false, true}, {false, false}}))
	require.True(t, HasCycle([][]bool{{false, true}, {true, false}}))
	require.True(t, HasCycle([][]bool{{true}}), "a self-loop")
	require.False(t, HasCycle(nil))
}

func TestFlipLock(t *testing.T) {
	owner := []int{-1}
	op, ok := FlipLock(owner, 0, 1)
	require.True(t, ok)
	require.Equal(t, model.OpAcquire, op)
	_, ok = FlipLock(owner, 0, 2)
	require.False(t, ok, "held by thread 1")
	op, ok = FlipLock(owner, 0, 1)
	require.True(t, ok)
	require.Equal(t, model.OpRelease, op)
	require.Equal(t, []int{-1}, owner)
}
