package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// badForks are traces that fork a thread twice, from one thread or two, or
// after its join (docs/spec.md §3), with the line and the reason each is
// refused. Read as they stand, predict answered serializable for the first
// two, whose observed order monitor finds not serializable, and failed
// with an internal error on the third.
var badForks = []struct{ name, src, line string }{
	{"twice.std", "T2|fork(T3)\nT2|fork(T3)\nT2|begin\nT2|r(x)\nT3|w(x)\nT2|r(x)\n",
		":2: fork(T3) of a thread already forked at line 1"},
	{"joined.std", "T1|join(T9)\nT0|begin\nT1|begin\nT0|w(x)\nT1|w(x)\nT0|r(x)\nT1|fork(T9)\n",
		":7: fork(T9) after thread T9's join"},
	{"two.std", "T1|fork(T0)\nT2|fork(T0)\nT0|begin\nT0|r(x)\nT1|w(x)\nT0|r(x)\n",
		":2: fork(T0) of a thread already forked at line 1"},
}

// traceCommands are the ways of reading a whole trace to a verdict
// (monitor --first stops at its first violation, before a later bad line).
var traceCommands = [][]string{
	{"monitor"}, {"monitor", "--lock-edges"},
	{"predict"}, {"predict", "--lock-edges"}, {"predict", "--all"}, {"predict", "--all", "--lock-edges"},
	{"predict", "--engine", "global"}, {"predict", "--engine", "global", "--lock-edges"},
	{"predict", "--engine", "brute"}, {"predict", "--engine", "brute", "--lock-edges"},
}

// Every command refuses such a trace with the same line and reason, and
// with --lenient every command skips the line and finds the violation
// that the rest of the trace records.
func TestTraceForkRulesAgree(t *testing.T) {
	for _, c := range badForks {
		path := file(t, c.name, c.src)
		for _, args := range traceCommands {
			o := conc(append(args, path)...)
			require.Equal(t, exitUsage, o.code, "%v %s: %s%s", args, c.name, o.stdout, o.stderr)
			require.Equal(t, path+c.line+"\n", o.stderr, "%v", args)
			require.Empty(t, o.stdout, "%v", args)
			o = conc(append(args, "--lenient", path)...)
			require.Equal(t, exitViolation, o.code, "%v --lenient %s: %s%s", args, c.name, o.stdout, o.stderr)
			require.Contains(t, o.stderr, "1 fork or join out of order", "%v", args)
		}
	}
}

// lockEdgeWitnesses are traces whose cycles under --lock-edges pass
// through a thread with no kept event: one whose part of the run is only
// a begin (a witness file that leaves that begin out reads back
// serializable), and one with two transactions that conflict with no
// other thread (which, kept as one, makes global and brute fail with an
// internal error).
var lockEdgeWitnesses = []string{
	"T1|begin\nT1|fork(T2)\nT2|begin\nT1|join(T2)\n",
	"T0|begin\nT0|fork(T1)\nT1|r(x)\nT1|r(x)\nT0|join(T1)\nT0|end\n",
}

// Every --witness-out file of predict --lock-edges, with each engine and
// with --all for each group, is a violation for monitor --lock-edges.
func TestTraceLockEdgesWitnessFilesViolate(t *testing.T) {
	for i, src := range lockEdgeWitnesses {
		path := file(t, "le.std", src)
		w := filepath.Join(t.TempDir(), "w.std")
		for _, args := range [][]string{{}, {"--engine", "global"}, {"--engine", "brute"},
			{"--all"}, {"--all", "--group", "1"}, {"--all", "--engine", "brute"}} {
			args = append([]string{"predict", "--lock-edges", path, "--witness-out", w}, args...)
			o := conc(args...)
			require.Equal(t, exitViolation, o.code, "trace %d %v: %s%s", i, args, o.stdout, o.stderr)
			m := conc("monitor", "--lock-edges", w)
			require.Equal(t, exitViolation, m.code, "trace %d %v: witness read back:\n%s%s", i, args, m.stdout, m.stderr)
		}
	}
}
