package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/gen"
)

// concStdin runs the command line with src as standard input.
func concStdin(src string, args ...string) outcome {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(src), &out, &errb)
	return outcome{code, out.String(), errb.String()}
}

// TestGenThenCheck pipes conc gen into conc check for each family: the
// verdict is the one the family promises for those flags.
func TestGenThenCheck(t *testing.T) {
	dfas := file(t, "two.dfa", "alphabet a b\ndfa A\ninit p\naccept q\np a q\nq b p\ndfa B\ninit r\naccept r\nr a r\n")
	cnf := file(t, "unsat.cnf", "p cnf 1 2\n1 0\n-1 0\n")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"chain", "--threads", "4", "--n", "2"}, exitViolation},
		{[]string{"chain", "--threads", "4", "--twin"}, exitSerializable},
		{[]string{"locked", "--threads", "3", "--n", "3"}, exitSerializable},
		{[]string{"deep", "--depth", "3"}, exitViolation},
		{[]string{"w1", "--dfa", dfas, "--m", "1"}, exitViolation}, // "a"
		{[]string{"w1", "--dfa", dfas, "--m", "2"}, exitSerializable},
		{[]string{"np", "--cnf", cnf}, exitSerializable},
		{[]string{"np", "--vars", "2", "--clauses", "1"}, exitViolation}, // one clause: satisfiable
	} {
		g := conc(append([]string{"gen"}, tc.args...)...)
		require.Equal(t, 0, g.code, "%v: %s", tc.args, g.stderr)
		c := concStdin(g.stdout, "check", "-", "--quiet")
		require.Equal(t, tc.code, c.code, "%v: %s%s\n%s", tc.args, c.stdout, c.stderr, g.stdout)
	}
}

// TestGenDeterministic checks that a seed reproduces the output and that
// the CLI writes what package gen writes.
func TestGenDeterministic(t *testing.T) {
	a := conc("gen", "random", "--seed", "7", "--threads", "3", "--loops", "--sync")
	b := conc("gen", "random", "--seed", "7", "--threads", "3", "--loops", "--sync")
	require.Equal(t, 0, a.code, a.stderr)
	require.Equal(t, a.stdout, b.stdout)
	require.NotEqual(t, a.stdout, conc("gen", "random", "--seed", "8", "--threads", "3", "--loops", "--sync").stdout)
	require.Equal(t, gen.Chain(3, 2, false), conc("gen", "chain", "--threads", "3", "--n", "2").stdout)
}

func TestGenTrace(t *testing.T) {
	g := conc("gen", "random", "--trace", "--events", "50", "--threads", "3")
	require.Equal(t, 0, g.code, g.stderr)
	lines := strings.Split(strings.TrimSpace(g.stdout), "\n")
	require.GreaterOrEqual(t, len(lines), 50)
	for _, l := range lines {
		require.Regexp(t, `^T[0-2]\|(begin|end|(r|w)\(x\d+\)|(acq|rel)\(l\d+\))$`, l)
	}
	m := concStdin(g.stdout, "monitor", "-", "--quiet")
	require.Contains(t, []int{exitSerializable, exitViolation}, m.code, m.stderr)
}

// A trace has one lock unless --locks says otherwise; --locks 0 is none.
func TestGenTraceLocks(t *testing.T) {
	count := func(args ...string) (acquires int) {
		g := conc(append([]string{"gen", "random", "--trace", "--events", "400"}, args...)...)
		require.Equal(t, 0, g.code, g.stderr)
		return strings.Count(g.stdout, "|acq(")
	}
	require.Positive(t, count())
	require.Zero(t, count("--locks", "0"))
	require.Positive(t, count("--locks", "3"))
	bad := conc("gen", "random", "--trace", "--locks", "many")
	require.Equal(t, exitUsage, bad.code)
}

func TestGenList(t *testing.T) {
	g := conc("gen")
	require.Equal(t, 0, g.code)
	for _, f := range gen.Families() {
		require.Contains(t, g.stdout, "  "+f+" ")
	}
}

func TestGenUsageErrors(t *testing.T) {
	bad := file(t, "bad.dfa", "alphabet a\ndfa A\ninit q\nq b q\n")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"gen", "nope"}, `unknown family "nope"`},
		{[]string{"gen", "chain", "locked"}, "want one FAMILY"},
		{[]string{"gen", "chain", "--trace"}, "--trace goes with the random family"},
		{[]string{"gen", "chain", "--dfa", bad}, "--dfa goes with w1"},
		{[]string{"gen", "random", "--trace", "--dfa", bad}, "--dfa goes with w1"},
		{[]string{"gen", "w1", "--dfa", bad}, `bad.dfa: line 4: letter "b" is not in the alphabet`},
		{[]string{"gen", "w1", "--dfa", "/no/such.dfa"}, "cannot read"},
		{[]string{"gen", "np", "--cnf", bad}, "bad.dfa"},
		{[]string{"gen", "chain", "--threads", "-1"}, "--threads -1"},
		{[]string{"gen", "chain", "--bogus"}, "--bogus"},
	} {
		o := conc(tc.args...)
		require.Equal(t, exitUsage, o.code, "%v", tc.args)
		require.Contains(t, o.stderr, tc.msg, "%v", tc.args)
	}
}
