package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadmeCommands: every command of README.md's sh blocks can be pasted
// into a fresh clone: the files it reads are in the repository, the files
// it writes go to /tmp (so that none is left in the clone), and each conc
// command of it runs, in-process, to an answer (exit 0 or 1), its pipes
// between conc commands included.
func TestReadmeCommands(t *testing.T) {
	t.Chdir("../..")
	src, err := os.ReadFile("README.md")
	require.NoError(t, err)
	lines := readmeCommands(string(src))
	require.NotEmpty(t, lines)
	tmp := t.TempDir()
	for _, line := range lines {
		t.Run(line, func(t *testing.T) { runReadmeLine(t, line, tmp) })
	}
}

// readmeCommands are the command lines of md's ```sh blocks, without their
// comments.
func readmeCommands(md string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(l, "```"):
			in = !in && strings.TrimPrefix(l, "```") == "sh"
			continue
		case !in:
			continue
		}
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// outputFlags are the flags whose value is a file conc writes.
var outputFlags = map[string]bool{"--dot": true, "--html": true, "--witness-out": true, "--plot": true}

// fileLike is an argument that names a file by its extension.
var fileLike = regexp.MustCompile(`\.(conc|std|gz|dot|html|svg|json)$`)

// runReadmeLine checks line's paths and runs its conc commands, each fed
// the previous one's output; it stops at the first command that is not
// conc's (dot, curl, go test) or that would not return (conc serve).
func runReadmeLine(t *testing.T, line, tmp string) {
	line, redirect, _ := strings.Cut(line, " > ")
	if redirect != "" {
		require.True(t, strings.HasPrefix(redirect, "/tmp/"), "output %s outside /tmp", redirect)
	}
	var stdin []byte
	running := true
	for _, seg := range strings.Split(line, " | ") {
		args := strings.Fields(seg)
		for i, a := range args {
			checkReadmeArg(t, a, i > 0 && outputFlags[args[i-1]])
		}
		args = concArgs(args)
		if !running || args == nil || args[0] == "serve" {
			running = false
			continue
		}
		for i, a := range args {
			if strings.HasPrefix(a, "/tmp/") {
				args[i] = filepath.Join(tmp, strings.TrimPrefix(a, "/tmp/"))
			}
		}
		var out, errb bytes.Buffer
		code := run(args, bytes.NewReader(stdin), &out, &errb)
		require.Contains(t, []int{exitSerializable, exitViolation}, code, "%s\n%s", seg, errb.String())
		stdin = out.Bytes()
	}
}

// checkReadmeArg: an output file is in /tmp (or standard output); an
// input file is in the repository.
func checkReadmeArg(t *testing.T, a string, output bool) {
	switch {
	case output:
		require.True(t, a == "-" || strings.HasPrefix(a, "/tmp/"), "output %s outside /tmp", a)
	case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "/tmp/") || strings.Contains(a, "://"):
	case strings.Contains(a, "/") || fileLike.MatchString(a):
		_, err := os.Stat(strings.TrimSuffix(strings.TrimPrefix(a, "@"), "/...")) // curl's @FILE, go's ./...
		require.NoError(t, err, "README names %s, which is not in the repository", a)
	}
}

// concArgs are the arguments of a conc command line ("conc ARGS" or "go
// run ./cmd/conc ARGS"); nil for any other command.
func concArgs(args []string) []string {
	switch {
	case len(args) > 1 && args[0] == "conc":
		return args[1:]
	case len(args) > 3 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/conc":
		return args[3:]
	}
	return nil
}

// TestReadmeNamesOptionalTools: README's optional tools section names the
// package of every program its commands pipe into besides conc, and the
// browser that the browser tests skip without.
func TestReadmeNamesOptionalTools(t *testing.T) {
	src, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, tools, ok := strings.Cut(string(src), "### Optional tools")
	require.True(t, ok, "README has no optional tools section")
	tools, _, _ = strings.Cut(tools, "\n## ")
	packages := map[string]string{"dot": "Graphviz"}
	for _, line := range readmeCommands(string(src)) {
		segs := strings.Split(line, " | ")
		for _, seg := range segs[1:] {
			prog := strings.Fields(seg)[0]
			if prog == "conc" {
				continue
			}
			require.Contains(t, packages, prog, "README pipes into %s: name its package here and in README", prog)
			require.Contains(t, tools, packages[prog])
			require.Contains(t, tools, "`"+prog+"`")
		}
	}
	require.Contains(t, tools, "Chromium")
	require.Contains(t, tools, "skip")
}

// TestTracesDocQuotesPredict: docs/trace-commands.md's moldyn example is what
// conc predict prints (its timing aside), and docs/spec.md quotes the
// header of the abridged run and the normal run's note as printed.
func TestTracesDocQuotesPredict(t *testing.T) {
	t.Chdir("../..")
	requireDocQuotesPredict(t, "`conc predict testdata/traces/jgf-moldyn-reduced.std`:\n\n", "", "testdata/traces/jgf-moldyn-reduced.std")

	spec, err := os.ReadFile("docs/spec.md")
	require.NoError(t, err)
	flat := strings.Join(strings.Fields(string(spec)), " ")
	sor := conc("predict", "testdata/traces/jgf-sor-reduced.std").stdout
	note, _, _ := strings.Cut(strings.TrimPrefix(sor, "violation\nnote: "), "\n")
	require.Contains(t, flat, "`"+note+"`")
	require.Contains(t, flat, "as a trace: --witness-out FILE)`")
	require.Contains(t, flat, "the begin and end it puts around each event outside a transaction`")
}

// TestTracesDocQuotesOrderings: docs/trace-commands.md's example of a
// trace with read locks and messages is what conc predict prints (its
// timing aside), and conc monitor finds the observed order serializable.
func TestTracesDocQuotesOrderings(t *testing.T) {
	t.Chdir("../..")
	requireDocQuotesPredict(t, "`conc predict\n  testdata/traces/orderings-withdraw.std`:\n\n", "  ", "testdata/traces/orderings-withdraw.std")
	m := conc("monitor", "testdata/traces/orderings-withdraw.std")
	require.Equal(t, exitSerializable, m.code, m.stderr)
	require.True(t, strings.HasPrefix(m.stdout, "serializable\n"), m.stdout)
}

// requireDocQuotesPredict: the code block after head in
// docs/trace-commands.md, indented by indent, is what conc predict prints
// for trace (its timing aside), a violation.
func requireDocQuotesPredict(t *testing.T, head, indent, trace string) {
	t.Helper()
	doc, err := os.ReadFile("docs/trace-commands.md")
	require.NoError(t, err)
	_, block, ok := strings.Cut(string(doc), head+indent+"```\n")
	require.True(t, ok, head)
	block, _, _ = strings.Cut(block, "\n"+indent+"```")
	if indent != "" {
		block = regexp.MustCompile(`(?m)^`+indent).ReplaceAllString(block, "")
	}
	o := conc("predict", trace)
	require.Equal(t, exitViolation, o.code, o.stderr)
	millis := regexp.MustCompile(`\d+ ms\n$`)
	require.Equal(t, millis.ReplaceAllString(o.stdout, "ms\n"), millis.ReplaceAllString(block+"\n", "ms\n"))
}
