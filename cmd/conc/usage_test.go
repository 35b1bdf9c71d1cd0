package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines/brute"
	"github.com/conc-dev/conc/predict"
)

// TestHelpStatesDefaults: the help texts give the real defaults and say
// that "-" is standard input and output.
func TestHelpStatesDefaults(t *testing.T) {
	for _, cmd := range []string{"check", "predict", "monitor", "profiles"} {
		o := conc(cmd, "--help")
		require.Equal(t, 0, o.code)
		require.Contains(t, o.stdout, "- reads it from standard input", cmd)
		require.NotContains(t, o.stdout, "the default)", cmd)
		require.NotContains(t, o.stdout, "(0: never)", cmd)
	}
	for _, cmd := range []string{"check", "predict"} {
		o := conc(cmd, "--help")
		require.Contains(t, o.stdout, fmt.Sprintf("per thread (default %d)", brute.MaxDepth))
		require.Contains(t, o.stdout, fmt.Sprintf("on recursive threads (default %d)", brute.MaxStack))
		require.Contains(t, o.stdout, "(-: standard output")
	}
	o := conc("predict", "--help")
	require.Contains(t, o.stdout, fmt.Sprintf("%d states of the lock-aware search", predict.DefaultMaxStates))
	require.Contains(t, o.stdout, fmt.Sprintf("over %d states", predict.DefaultMaxSize))
}

func TestBenchHelpStatesMaxDepth(t *testing.T) {
	o := conc("bench", "--help")
	require.Equal(t, 0, o.code)
	require.Contains(t, o.stdout, fmt.Sprintf("per thread (default %d)", brute.MaxDepth))
}
