package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A usage error is one line, "conc: CMD: ..." (docs/spec.md §4): the
// command's name comes first in every one, also in those found after the
// flags were parsed (the engine, the outputs).
func TestUsageErrorsNameTheCommand(t *testing.T) {
	locked := file(t, "g.conc", guarded)
	tr := file(t, "g.std", guardedTrace)
	w := filepath.Join(t.TempDir(), "w")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", locked, "--engine", "profile"}, "conc: check: --engine profile cannot decide"},
		{[]string{"predict", tr, "--engine", "profile"}, "conc: predict: --engine profile cannot decide"},
		{[]string{"predict", tr, "--dot", "-", "--witness-out", "-"}, "conc: predict: --dot - and --witness-out -: only one output"},
		{[]string{"predict", tr, "--dot", w, "--witness-out", w}, "conc: predict: --dot and --witness-out name the same file"},
		{[]string{"predict", tr, "--dot", tr}, "conc: predict: --dot: " + tr + " is an input of this run"},
		{[]string{"monitor", tr, "--dot", tr}, "conc: monitor: --dot: " + tr + " is an input of this run"},
		{[]string{"check", locked, "--dot", locked}, "conc: check: --dot: " + locked + " is an input of this run"},
	} {
		o := conc(tc.args...)
		require.Equal(t, exitUsage, o.code, "%v: %s", tc.args, o.stdout)
		requireOneLine(t, o.stderr, tc.args)
		require.True(t, strings.HasPrefix(o.stderr, tc.want), "%v: %q", tc.args, o.stderr)
	}
}

// requireOneLine: a message is one line that starts "conc: CMD: ".
func requireOneLine(t *testing.T, stderr string, args []string) {
	t.Helper()
	require.Regexp(t, regexp.MustCompile(`^conc: `+args[0]+`: [^\n]+\n$`), stderr, "%v", args)
}
