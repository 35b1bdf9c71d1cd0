package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict"
)

// TestBadFlagValueNamedAlone: each bad value is reported with its flag
// alone, in the form --flag "value": why.
func TestBadFlagValueNamedAlone(t *testing.T) {
	prog := file(t, "bank.conc", lostUpdate)
	tr := file(t, "r.std", reorderTrace)
	counts := []string{"--max-states", "--max-depth", "--max-stack"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", prog, "--timeout", "5"}, `check: --timeout "5": a duration needs a unit, e.g. 5s or 2m`},
		{[]string{"check", prog, "--timeout", "0"}, `check: --timeout "0": want a positive duration`},
		{[]string{"check", prog, "--timeout", "-1s"}, `check: --timeout "-1s": want a positive duration`},
		{[]string{"predict", tr, "--timeout", "5"}, `predict: --timeout "5": a duration needs a unit`},
		{[]string{"monitor", tr, "--timeout", "0"}, `monitor: --timeout "0": want a positive duration`},
		{[]string{"check", prog, "--max-states", "-1"}, `check: --max-states "-1": want a count of 0 or more`},
		{[]string{"check", prog, "--max-depth", "-1"}, `check: --max-depth "-1": want a count of 0 or more`},
		{[]string{"predict", tr, "--max-stack", "-1"}, `predict: --max-stack "-1": want a count of 0 or more`},
		{[]string{"check", prog, "--max-depth", "x"}, `check: --max-depth "x": want a count of 0 or more`},
	} {
		o := conc(tc.args...)
		require.Equal(t, exitUsage, o.code, tc.args)
		require.True(t, strings.HasPrefix(o.stderr, "conc: "+tc.want), "%v: %s", tc.args, o.stderr)
		for _, c := range counts {
			if !strings.Contains(tc.want, c) {
				require.NotContains(t, o.stderr, c, "%v names only its own flag", tc.args)
			}
		}
	}
}

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
		require.Contains(t, o.stdout, fmt.Sprintf("per thread (default %d)", engines.BruteMaxDepth))
		require.Contains(t, o.stdout, fmt.Sprintf("on recursive threads (default %d)", engines.BruteMaxStack))
		require.Contains(t, o.stdout, "(-: standard output")
	}
	o := conc("predict", "--help")
	require.Contains(t, o.stdout, fmt.Sprintf("%d states of the lock-aware search", predict.DefaultMaxStates))
	require.Contains(t, o.stdout, fmt.Sprintf("over %d states", predict.DefaultMaxSize))
}

func TestBenchHelpStatesMaxDepth(t *testing.T) {
	o := conc("bench", "--help")
	require.Equal(t, 0, o.code)
	require.Contains(t, o.stdout, fmt.Sprintf("per thread (default %d)", engines.BruteMaxDepth))
}
