package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// An empty input is serializable with the no-threads note (docs/spec.md
// §2, §5) from every command and engine, in a trace's words for a trace:
// predict --engine global gives it rather than its shortcut's note, and
// monitor and profiles give it too.
func TestEmptyInputsSaySo(t *testing.T) {
	std := file(t, "empty.std", "\n\n")
	prog := file(t, "empty.conc", "// nothing\n")
	for _, args := range [][]string{
		{"predict", std}, {"predict", std, "--engine", "global"}, {"predict", std, "--engine", "brute"},
		{"predict", std, "--engine", "profile"}, {"predict", std, "--all"}, {"monitor", std}, {"monitor", std, "--cycles"},
	} {
		o := conc(args...)
		require.Equal(t, exitSerializable, o.code, "%v: %s", args, o.stderr)
		require.Contains(t, o.stdout, "note: the trace has no events\n", "%v", args)
		j := conc(append(args, "--format", "json")...)
		require.Equal(t, exitSerializable, j.code, "%v: %s", args, j.stderr)
		require.Regexp(t, `"reason": ?"the trace has no events"`, j.stdout, "%v", args)
	}
	for _, args := range [][]string{
		{"check", prog}, {"check", prog, "--engine", "global"}, {"check", prog, "--engine", "brute"},
		{"profiles", prog},
	} {
		o := conc(args...)
		require.Equal(t, exitSerializable, o.code, "%v: %s", args, o.stderr)
		require.Contains(t, o.stdout, "note: the program has no threads\n", "%v", args)
	}
	o := conc("profiles", prog, "--format", "json")
	require.Equal(t, exitSerializable, o.code, o.stderr)
	require.Contains(t, o.stdout, `"threads": []`)
}
