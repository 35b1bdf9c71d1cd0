package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

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
	empty := file(t, "empty.cnf", "p cnf 0 0\n")
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
		{[]string{"np", "--vars", "3", "--clauses", "1"}, exitViolation}, // one clause: satisfiable
		{[]string{"np", "--cnf", empty}, exitViolation},                  // the empty formula is satisfied
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

// A trace has locks unless --locks 0 says otherwise.
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
		require.Contains(t, g.stdout, "\n  "+f+"\n")
	}
}

// TestGenHelpListsFamilies: conc gen --help ends with every family and one
// plain sentence for it, with no Go identifiers (Params, Threads=k,
// dfa.Counters) in it.
func TestGenHelpListsFamilies(t *testing.T) {
	h := conc("gen", "--help")
	require.Equal(t, 0, h.code)
	_, list, ok := strings.Cut(h.stdout, "\nFamilies")
	require.True(t, ok, h.stdout)
	goIdent := regexp.MustCompile(`[A-Za-z]\.[A-Za-z]|[a-z][A-Z]|\w=\w|Params`)
	for _, f := range gen.Families() {
		_, rest, ok := strings.Cut(list, "\n  "+f+"\n")
		require.True(t, ok, "%s is not listed:\n%s", f, list)
		var sentence []string
		for _, l := range strings.Split(rest, "\n") {
			if !strings.HasPrefix(l, "        ") {
				break
			}
			sentence = append(sentence, strings.TrimSpace(l))
		}
		s := strings.Join(sentence, " ")
		require.NotEmpty(t, s, f)
		require.True(t, strings.HasSuffix(s, "."), "%s: %q", f, s)
		require.Equal(t, 1, strings.Count(s+" ", ". "), "%s: one sentence: %q", f, s)
		require.NotRegexp(t, goIdent, s, f)
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
		{[]string{"gen", "chain", "--threads", "-1"}, "--threads -1: chain wants 2 to 1000000"},
		{[]string{"gen", "chain", "--bogus"}, "--bogus"},
	} {
		o := conc(tc.args...)
		require.Equal(t, exitUsage, o.code, "%v", tc.args)
		require.Contains(t, o.stderr, tc.msg, "%v", tc.args)
	}
}

// TestGenNPReadme: the README's example writes a real 3-CNF formula (at
// least three variables, the six clauses asked for, three distinct
// variables each), and conc check's verdict is its satisfiability.
func TestGenNPReadme(t *testing.T) {
	for seed := range 6 {
		g := conc("gen", "np", "--clauses", "6", "--seed", fmt.Sprint(seed+1))
		require.Equal(t, 0, g.code, g.stderr)
		var dimacs strings.Builder
		for _, l := range strings.Split(g.stdout, "\n")[1:] {
			if !strings.HasPrefix(l, "// ") {
				break
			}
			dimacs.WriteString(strings.TrimPrefix(l, "// ") + "\n")
		}
		f, err := gen.ParseDIMACS(dimacs.String())
		require.NoError(t, err, g.stdout)
		require.GreaterOrEqual(t, f.Vars, 3)
		require.Len(t, f.Clauses, 6)
		for _, c := range f.Clauses {
			require.Len(t, c, 3)
			require.True(t, c[0] != c[1] && c[0] != -c[1] && c[0] != c[2] && c[0] != -c[2] && c[1] != c[2] && c[1] != -c[2], "%v", c)
		}
		want := exitSerializable
		if f.Satisfiable() {
			want = exitViolation
		}
		require.Equal(t, want, concStdin(g.stdout, "check", "-", "--quiet").code, "seed %d", seed+1)
	}
}

// TestGenSizesChecked: every size a family reads is checked against the
// family's range, 0 and negatives included, each bad flag in a message of
// its own; a flag the family does not read is an error too.
func TestGenSizesChecked(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msgs []string
	}{
		{[]string{"chain", "--threads", "1"}, []string{"--threads 1: chain wants 2 to 1000000"}},
		{[]string{"chain", "--threads", "0", "--n", "-1"}, []string{"--threads 0: chain wants 2 to 1000000", "--n -1: chain wants 0 to 1000000"}},
		{[]string{"random", "--threads", "0"}, []string{"--threads 0: random wants 1 to 1000000"}},
		{[]string{"random", "--vars", "0", "--txn", "0"}, []string{"--vars 0: random wants 1", "--txn 0: random wants 1"}},
		{[]string{"locked", "--n", "0", "--locks", "0"}, []string{"--n 0: locked wants 1", "--locks 0: locked wants 1"}},
		{[]string{"deep", "--depth", "0"}, []string{"--depth 0: deep wants 1"}},
		{[]string{"np", "--vars", "2"}, []string{"--vars 2: np wants 3 to 1000000"}},
		{[]string{"np", "--clauses", "0"}, []string{"--clauses 0: np wants 1"}},
		{[]string{"w1", "--states", "0", "--letters", "0", "--m", "-1"}, []string{"--states 0: w1 wants 1", "--letters 0: w1 wants 1", "--m -1: w1 wants 0"}},
		{[]string{"w1-counters", "--threads", "1"}, []string{"--threads 1: w1-counters wants 2"}},
		{[]string{"random", "--trace", "--threads", "0"}, []string{"--threads 0: random --trace wants 1"}},
		{[]string{"random", "--trace", "--events", "0"}, []string{"--events 0: --trace wants 1 or more"}},
		{[]string{"random", "--locks", "2"}, []string{"--locks goes with --sync in random"}},
		{[]string{"chain", "--depth", "3"}, []string{"--depth does not apply to chain (it reads --threads, --n, --twin)"}},
		{[]string{"np", "--cnf", "x.cnf", "--clauses", "3"}, []string{"--clauses does not apply to np --cnf"}},
		{[]string{"chain", "--threads", "2000000"}, []string{"--threads 2000000: chain wants 2 to 1000000"}},
	} {
		o := conc(append([]string{"gen"}, tc.args...)...)
		require.Equal(t, exitUsage, o.code, "%v", tc.args)
		lines := strings.Split(strings.TrimSpace(o.stderr), "\n")
		require.Len(t, lines, len(tc.msgs), "%v: %s", tc.args, o.stderr)
		for _, m := range tc.msgs {
			require.Contains(t, o.stderr, "conc: gen: "+m, "%v", tc.args)
		}
		require.Empty(t, o.stdout)
	}
}

// TestGenRefusesHuge: sizes whose text cannot fit are refused at once,
// with the estimate and the cap, before anything is drawn.
func TestGenRefusesHuge(t *testing.T) {
	for _, args := range [][]string{
		{"random", "--threads", "100000", "--n", "1000"},
		{"locked", "--threads", "1000", "--n", "100000"},
		{"np", "--clauses", "1000000", "--vars", "1000000"},
		{"w1", "--threads", "100", "--states", "100", "--letters", "10", "--m", "100"},
		{"deep", "--depth", "1000000"},
	} {
		start := time.Now()
		o := conc(append([]string{"gen"}, args...)...)
		require.Equal(t, exitUsage, o.code, "%v", args)
		require.Regexp(t, `^conc: gen: the program would be about [\d.]+ [GMT]iB, over the cap of 64 MiB: lower --`, o.stderr)
		require.Less(t, time.Since(start), 5*time.Second, "%v: nothing is drawn", args)
	}
	big := file(t, "big.cnf", "p cnf 3 400000\n"+strings.Repeat("1 -2 3 0\n", 400000))
	o := conc("gen", "np", "--cnf", big)
	require.Equal(t, exitUsage, o.code)
	require.Contains(t, o.stderr, "over the cap of 64 MiB: lower the formula's size")
}

// --seed is refused by the families that draw nothing at random (and by
// np --cnf), like any other flag a family does not read.
func TestGenSeedRefusedWhereUnused(t *testing.T) {
	for _, fam := range []string{"chain", "deep", "locked", "w1-counters"} {
		o := conc("gen", fam, "--seed", "3")
		require.Equal(t, exitUsage, o.code, fam)
		require.Equal(t, "conc: gen: --seed does not apply to "+fam+" (it draws nothing at random; ", o.stderr[:len("conc: gen: --seed does not apply to "+fam+" (it draws nothing at random; ")], fam)
	}
	for _, args := range [][]string{{"random"}, {"np"}, {"w1"}, {"random", "--trace", "--events", "10"}} {
		o := conc(append([]string{"gen", "--seed", "3"}, args...)...)
		require.Equal(t, 0, o.code, "%v: %s", args, o.stderr)
	}
}

// TestGenTraceDefaultViolates: the trace conc gen random --trace writes
// with its defaults shows what the checkers are for: it violates as
// observed (monitor) and as predicted (predict).
func TestGenTraceDefaultViolates(t *testing.T) {
	g := conc("gen", "random", "--trace")
	require.Equal(t, 0, g.code, g.stderr)
	m := concStdin(g.stdout, "monitor", "-", "--quiet")
	require.Equal(t, exitViolation, m.code, m.stdout+m.stderr)
	p := concStdin(g.stdout, "predict", "-", "--quiet")
	require.Equal(t, exitViolation, p.code, p.stdout+p.stderr)
}
