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

// A file that cannot be read is one message for every command, "conc:
// cannot read NAME: why", the name once; and a damaged gzip trace is a
// trace error, "FILE:LINE: ...", whether the cut is in its header or later.
func TestInputErrorsOneForm(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nonexist")
	for _, cmd := range []string{"check", "profiles", "predict", "monitor"} {
		o := conc(cmd, missing)
		require.Equal(t, exitUsage, o.code, cmd)
		require.Equal(t, "conc: cannot read "+missing+": no such file or directory\n", o.stderr, cmd)
		o = conc(cmd, dir)
		require.Equal(t, exitUsage, o.code, cmd)
		switch cmd {
		case "monitor": // a directory is a corpus (docs/corpus.md): this one has no trace
			require.Equal(t, "conc: monitor: "+dir+": no trace in it (files ending .std or .std.gz)\n", o.stderr)
		case "predict": // a corpus is reported with --all
			require.Contains(t, o.stderr, "conc: predict: several traces (or --summary-out) are reported with --all")
		default:
			require.Equal(t, "conc: cannot read "+dir+": is a directory\n", o.stderr, cmd)
		}
	}
	_, gz := gzipFile(t, "lost.std.gz", lostUpdateTrace)
	for _, cut := range []int{5, len(gz) - 4} {
		p := file(t, "cut.std.gz", string(gz[:cut]))
		for _, cmd := range []string{"predict", "monitor"} {
			o := conc(cmd, p)
			require.Equal(t, exitUsage, o.code, cmd)
			require.Regexp(t, `^`+regexp.QuoteMeta(p)+`:\d+: reading stopped: gzip data truncated or corrupt \([^\n]*\)\n$`, o.stderr, "%s, cut at %d", cmd, cut)
		}
	}
}

// Every bad flag value is "conc: CMD: --FLAG "VALUE": why; run 'conc CMD
// --help'", never package flag's bare "parse error" nor strconv's text,
// and names its flag alone (not the other counts that share its parser).
func TestBadFlagValuesSayWhy(t *testing.T) {
	prog := file(t, "a.conc", lostUpdate)
	tr := file(t, "a.std", lostUpdateTrace)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"monitor", tr, "--max-cycle", "x"}, `--max-cycle "x": want a whole number`},
		{[]string{"monitor", tr, "--max-cycle", "0"}, `--max-cycle "0": want 1 or more`},
		{[]string{"monitor", tr, "--format", "xml"}, `--format "xml": want text or json`},
		{[]string{"gen", "random", "--threads", "x"}, `--threads "x": want a whole number`},
		{[]string{"gen", "random", "--seed", "-1"}, `--seed "-1": want a whole number, 0 or more`},
		{[]string{"check", prog, "--quiet=maybe"}, `--quiet "maybe": want true or false`},
		{[]string{"check", prog, "--format", "xml"}, `--format "xml": want text or json`},
		{[]string{"predict", tr, "--progress=2"}, `--progress "2": want true or false`},
		{[]string{"predict", tr, "--engine", "magic"}, `--engine "magic": want auto, profile, global or brute`},
		{[]string{"profiles", prog, "--format", "xml"}, `--format "xml": want text or json`},
		{[]string{"bench", "--repeat", "x"}, `--repeat "x": want a whole number`},
		{[]string{"bench", "--repeat", "0"}, `--repeat "0": want 1 or more`},
		{[]string{"bench", "--metric", "joules"}, `--metric "joules": want states or time`},
		{[]string{"check", prog, "--timeout", "5"}, `--timeout "5": a duration needs a unit, e.g. 5s or 2m`},
		{[]string{"check", prog, "--timeout", "0"}, `--timeout "0": want a positive duration, e.g. 30s or 2h`},
		{[]string{"check", prog, "--timeout", "-1s"}, `--timeout "-1s": want a positive duration, e.g. 30s or 2h`},
		{[]string{"predict", tr, "--timeout", "5"}, `--timeout "5": a duration needs a unit, e.g. 5s or 2m`},
		{[]string{"monitor", tr, "--timeout", "0"}, `--timeout "0": want a positive duration, e.g. 30s or 2h`},
		{[]string{"check", prog, "--max-states", "-1"}, `--max-states "-1": want a count of 0 or more`},
		{[]string{"check", prog, "--max-depth", "-1"}, `--max-depth "-1": want a count of 0 or more`},
		{[]string{"predict", tr, "--max-stack", "-1"}, `--max-stack "-1": want a count of 0 or more`},
		{[]string{"check", prog, "--max-depth", "x"}, `--max-depth "x": want a count of 0 or more`},
	} {
		o := conc(tc.args...)
		require.Equal(t, exitUsage, o.code, "%v: %s", tc.args, o.stdout)
		requireOneLine(t, o.stderr, tc.args)
		want := "conc: " + tc.args[0] + ": " + tc.want + "; run 'conc " + tc.args[0] + " --help'\n"
		require.Equal(t, want, o.stderr, "%v", tc.args)
	}
}

// Lists in messages are words, "a, b, c", not Go slices "[a b c]".
func TestListsInMessages(t *testing.T) {
	for _, args := range [][]string{
		{"gen", "foo"}, {"bench", "--family", "foo"}, {"bench", "--engines", "foo"},
	} {
		o := conc(args...)
		require.Equal(t, exitUsage, o.code, "%v", args)
		require.Regexp(t, `\(have [a-z0-9-]+(, [a-z0-9-]+)+\)\n$`, o.stderr, "%v", args)
	}
}

// conc --help lists the commands in aligned columns: every summary starts
// in the same column (a long synopsis, such as profiles', pushes none out).
func TestUsageColumnsAligned(t *testing.T) {
	o := conc("--help")
	col := -1
	for _, name := range order {
		c := commands[name]
		i := strings.Index(o.stdout, c.summary)
		require.Positive(t, i, c.name)
		lineStart := strings.LastIndex(o.stdout[:i], "\n") + 1
		if col < 0 {
			col = i - lineStart
		}
		require.Equal(t, col, i-lineStart, "%s's summary column", c.name)
	}
}

// The help states what the code does: predict's --max-states names both
// default budgets, --max-stack the engines and threads it bounds, and
// --lenient the semantic repairs and where the count goes.
func TestHelpStatesTheDefaults(t *testing.T) {
	h := conc("predict", "--help").stdout
	require.Contains(t, h, "2000000 chain states of the lock-free search")
	require.Contains(t, h, "500000 states of the lock-aware search")
	require.Contains(t, h, "brute, global: call depth N of the bounded search on recursive threads (default 8)")
	for _, cmd := range []string{"predict", "monitor"} {
		h := conc(cmd, "--help").stdout
		require.Contains(t, h, "a rel of a lock not held, an end without begin", cmd)
		require.Contains(t, h, "JSON: skipped", cmd)
	}
}
