package trace

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// More threads than the packed cache holds, long names beside short ones,
// and names that differ only by a trailing NUL or a prefix all get their own
// first-seen ids.
func TestReaderThreadIDs(t *testing.T) {
	var names []string
	for i := range 40 {
		names = append(names, fmt.Sprintf("T%d", i), fmt.Sprintf("a-thread-with-a-long-name-%d", i))
	}
	names = append(names, "T1\x00", "T")
	var sb strings.Builder
	for round := range 3 {
		for _, n := range names {
			fmt.Fprintf(&sb, "%s|w(x%d)\n", n, round)
		}
	}
	r, err := NewReader(strings.NewReader(sb.String()), "t.std", Options{})
	require.NoError(t, err)
	for i := range 3 * len(names) {
		ev, err := r.Next()
		require.NoError(t, err)
		require.Equal(t, int32(i%len(names)), ev.Thread, "line %d", i+1)
	}
	_, err = r.Next()
	require.ErrorIs(t, err, io.EOF)
	require.Equal(t, names, r.Threads().Names())
}
