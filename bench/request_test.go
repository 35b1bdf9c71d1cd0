package bench

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestShellWords(t *testing.T) {
	require.Equal(t, "--family chain --sizes 1,2 --plot docs/plots/x.svg", ShellWords([]string{"--family", "chain", "--sizes", "1,2", "--plot", "docs/plots/x.svg"}))
	require.Equal(t, `--title 'a b' '' 'it'\''s'`, ShellWords([]string{"--title", "a b", "", "it's"}))
}
