package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOutputIsTheInput: an output that names the input, directly or through
// a symbolic or hard link or a redirected standard input, is refused with
// exit 2 before anything is written, and the input is left as it was.
func TestOutputIsTheInput(t *testing.T) {
	for _, tc := range []struct {
		name, cmd, flag, src string
		in                   func(t *testing.T, path string) (arg, out string, stdin *os.File)
	}{
		{"predict witness", "predict", "--witness-out", reorderTrace, same},
		{"predict dot", "predict", "--dot", reorderTrace, same},
		{"monitor dot", "monitor", "--dot", lostUpdateTrace, same},
		{"check dot", "check", "--dot", lostUpdate, same},
		{"predict witness symlink", "predict", "--witness-out", reorderTrace, symlink},
		{"monitor dot hard link", "monitor", "--dot", lostUpdateTrace, hardLink},
		{"check dot hard link", "check", "--dot", lostUpdate, hardLink},
		{"predict dot stdin", "predict", "--dot", reorderTrace, stdinFile},
		{"check dot stdin", "check", "--dot", lostUpdate, stdinFile},
		{"check html", "check", "--html", lostUpdate, same},
		{"predict html symlink", "predict", "--html", reorderTrace, symlink},
		{"monitor html hard link", "monitor", "--html", lostUpdateTrace, hardLink},
		{"monitor html stdin", "monitor", "--html", lostUpdateTrace, stdinFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := file(t, "input", tc.src)
			arg, out, stdin := tc.in(t, path)
			var in io.Reader = strings.NewReader("")
			if stdin != nil {
				in = stdin
			}
			var o, errb bytes.Buffer
			code := run([]string{tc.cmd, arg, tc.flag, out}, in, &o, &errb)
			require.Equal(t, exitUsage, code, "stdout:\n%s\nstderr:\n%s", o.String(), errb.String())
			require.Equal(t, "conc: "+tc.cmd+": "+tc.flag+": "+out+" is an input of this run; refusing to overwrite it\n", errb.String())
			require.Empty(t, o.String())
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, tc.src, string(b), "the input is intact")
		})
	}
}

func same(t *testing.T, path string) (string, string, *os.File) { return path, path, nil }

func symlink(t *testing.T, path string) (string, string, *os.File) {
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(path, link))
	return path, link, nil
}

func hardLink(t *testing.T, path string) (string, string, *os.File) {
	link := filepath.Join(filepath.Dir(path), "hard")
	require.NoError(t, os.Link(path, link))
	return link, path, nil
}

func stdinFile(t *testing.T, path string) (string, string, *os.File) {
	f, err := os.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return "-", path, f
}

// TestFailedRunKeepsEarlierOutputs: a run that ends in an error (a bad
// trace line, an engine that fails) leaves files of the output names as
// they were, and no temporary file beside them.
func TestFailedRunKeepsEarlierOutputs(t *testing.T) {
	badTrace := "T1|begin\nT1|r(x)\nT1|rd(x)\n"
	for _, tc := range []struct {
		name string
		args func(in, dot, wit string) []string
		src  string
	}{
		{"predict", func(in, dot, wit string) []string {
			return []string{"predict", in, "--dot", dot, "--witness-out", wit}
		}, badTrace},
		{"monitor", func(in, dot, _ string) []string { return []string{"monitor", in, "--dot", dot} }, badTrace},
		{"check", func(in, dot, _ string) []string {
			return []string{"check", in, "--dot", dot, "--engine", panicky.Name}
		}, lostUpdate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := file(t, "input", tc.src)
			dir := t.TempDir()
			dot, wit := filepath.Join(dir, "c.dot"), filepath.Join(dir, "w.std")
			for _, p := range []string{dot, wit} {
				require.NoError(t, os.WriteFile(p, []byte("earlier"), 0o644))
			}
			o := conc(tc.args(in, dot, wit)...)
			require.Equal(t, exitUsage, o.code, o.stdout+o.stderr)
			for _, p := range []string{dot, wit} {
				b, err := os.ReadFile(p)
				require.NoError(t, err)
				require.Equal(t, "earlier", string(b), p)
			}
			es, err := os.ReadDir(dir)
			require.NoError(t, err)
			require.Len(t, es, 2, "no temporary file is left")
		})
	}
}

// TestDashIsStdout: "-" as --dot or --witness-out is standard output, which
// the output then has to itself: the report goes to standard error. No file
// named "-" is created.
func TestDashIsStdout(t *testing.T) {
	t.Chdir(t.TempDir())
	c := conc("check", file(t, "bank.conc", lostUpdate), "--dot", "-")
	require.Equal(t, exitViolation, c.code, c.stderr)
	require.True(t, strings.HasPrefix(c.stdout, "digraph conflicts {"), c.stdout)
	require.True(t, strings.HasPrefix(c.stderr, "violation"), c.stderr)

	m := conc("monitor", file(t, "lost.std", lostUpdateTrace), "--dot", "-", "--format", "json")
	require.Equal(t, exitViolation, m.code, m.stderr)
	require.True(t, strings.HasPrefix(m.stdout, "digraph "), m.stdout)
	require.Contains(t, m.stderr, `"verdict": "violation"`)

	tr := file(t, "r.std", reorderTrace)
	p := conc("predict", tr, "--witness-out", "-")
	require.Equal(t, exitViolation, p.code, p.stderr)
	require.True(t, strings.HasPrefix(p.stderr, "violation"), p.stderr)
	lines := strings.Split(strings.TrimSpace(p.stdout), "\n")
	require.GreaterOrEqual(t, len(lines), 3, p.stdout)
	for _, l := range lines {
		require.Len(t, strings.Split(l, "|"), 3, "an STD line: %q", l)
	}

	_, err := os.Stat("-")
	require.True(t, os.IsNotExist(err), "no file named -")

	both := conc("predict", tr, "--witness-out", "-", "--dot", "-")
	require.Equal(t, exitUsage, both.code)
	require.Equal(t, "conc: predict: --dot - and --witness-out -: only one output can go to standard output\n", both.stderr)
	w := filepath.Join(t.TempDir(), "w")
	one := conc("predict", tr, "--witness-out", w, "--dot", w)
	require.Equal(t, exitUsage, one.code)
	require.Equal(t, "conc: predict: --dot and --witness-out name the same file\n", one.stderr)
}
