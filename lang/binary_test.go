package lang

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// A rune cut by the sniffed prefix's end is not binary; a lone
// continuation byte at its start is.
func TestBinaryAtSniffEdge(t *testing.T) {
	for cut := range 4 {
		line, _ := binaryAt(bytes.Repeat([]byte("é"), sniffLen)[cut:])
		require.Equal(t, cut%2, line, "cut %d", cut) // an odd cut starts with a lone continuation byte
	}
}
