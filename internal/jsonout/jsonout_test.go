package jsonout

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMarshal(t *testing.T) {
	b, err := Marshal(map[string]any{"f": "<stdin>", "l": NonNil(nil)})
	require.NoError(t, err)
	require.Equal(t, `{"f":"<stdin>","l":[]}`, string(b))
	_, err = Marshal(func() {})
	require.Error(t, err)
}
