package trace

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// The hash index keeps first-seen ids through its growth, finds every
// name again (by Intern and Lookup), and tells names apart that share
// their hash's low bits or a prefix.
func TestTableIndexGrows(t *testing.T) {
	var tb Table
	names := []string{"", "x", "a\x00", "\x00", "12345678", "123456789", "0", "007", "@17[25]", "a-long-name-of-more-than-16-bytes", "12345", "123456"}
	for i := range 5000 {
		names = append(names, fmt.Sprintf("x%d", i), fmt.Sprintf("@%X[%d]", i%7, i))
	}
	for i, n := range names {
		require.Equal(t, int32(i), tb.Intern(n), n)
	}
	require.Equal(t, len(names), tb.Len())
	for i, n := range names {
		require.Equal(t, int32(i), tb.Intern(n), n)
		id, ok := tb.Lookup(n)
		require.True(t, ok, n)
		require.Equal(t, int32(i), id)
		require.Equal(t, n, tb.Name(id))
	}
	_, ok := tb.Lookup("x5000")
	require.False(t, ok)
	require.LessOrEqual(t, 2*tb.Len(), len(tb.index)-1, "index at most half full")
	require.Zero(t, tb.index[len(tb.index)-1].id, "the slot after the last stays empty")
}

// A short name hashes alike whatever follows it in its buffer.
func TestKeyOfIgnoresSpareCapacity(t *testing.T) {
	for _, name := range []string{"", "T", "x12", "@17[25]", "12345678", "123456789abc"} {
		buf := []byte(name + "|garbage!")
		tight := append([]byte(nil), name...)
		require.Equal(t, keyOf(tight[:len(name):len(name)]), keyOf(buf[:len(name)]), name)
	}
}
