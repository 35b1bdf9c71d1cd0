package outfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func write(t *testing.T, path, s string) os.FileInfo {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(s), 0o644))
	st, err := os.Stat(path)
	require.NoError(t, err)
	return st
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// entries lists dir: a leftover temporary file would show here.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestRefusesTheInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.std")
	st := write(t, in, "input")
	link := filepath.Join(dir, "link.std")
	require.NoError(t, os.Symlink(in, link))
	hard := filepath.Join(dir, "hard.std")
	require.NoError(t, os.Link(in, hard))
	for _, out := range []string{in, link, hard, filepath.Join(dir, ".", "in.std")} {
		_, err := Create(out, io.Discard, nil, st)
		require.ErrorIs(t, err, ErrIsInput, out)
		require.ErrorContains(t, err, out)
	}
	require.Equal(t, "input", read(t, in))
	require.ElementsMatch(t, []string{"in.std", "link.std", "hard.std"}, entries(t, dir))
}

func TestCommitReplacesOnlyAtTheEnd(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.dot")
	write(t, out, "earlier")
	require.NoError(t, os.Chmod(out, 0o640))
	f, err := Create(out, io.Discard)
	require.NoError(t, err)
	_, err = io.WriteString(f, "new")
	require.NoError(t, err)
	require.Equal(t, "earlier", read(t, out), "nothing is visible before Commit")
	require.NoError(t, f.Commit())
	require.Equal(t, "new", read(t, out))
	st, err := os.Stat(out)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o640), st.Mode().Perm(), "the earlier file's mode is kept")
	require.Equal(t, []string{"out.dot"}, entries(t, dir))
	require.NoError(t, f.Commit(), "a second Commit does nothing")
}

func TestDiscardKeepsTheEarlierFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.dot")
	write(t, out, "earlier")
	f, err := Create(out, io.Discard)
	require.NoError(t, err)
	_, err = io.WriteString(f, "half")
	require.NoError(t, err)
	f.Discard()
	require.Equal(t, "earlier", read(t, out))
	require.Equal(t, []string{"out.dot"}, entries(t, dir))

	fresh := filepath.Join(dir, "fresh.dot")
	f, err = Create(fresh, io.Discard)
	require.NoError(t, err)
	f.Discard()
	_, err = os.Stat(fresh)
	require.True(t, errors.Is(err, os.ErrNotExist), "a discarded new file never appears")
}

func TestSymlinkIsFollowed(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.dot")
	write(t, real, "earlier")
	link := filepath.Join(dir, "link.dot")
	require.NoError(t, os.Symlink("real.dot", link))
	f, err := Create(link, io.Discard)
	require.NoError(t, err)
	io.WriteString(f, "new")
	require.NoError(t, f.Commit())
	require.Equal(t, "new", read(t, real))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	require.Equal(t, os.ModeSymlink, fi.Mode()&os.ModeSymlink, "the link stays a link")
}

func TestStdoutAndDevices(t *testing.T) {
	var b bytes.Buffer
	f, err := Create(Stdout, &b)
	require.NoError(t, err)
	io.WriteString(f, "to stdout")
	require.NoError(t, f.Commit())
	require.Equal(t, "to stdout", b.String())

	f, err = Create(os.DevNull, io.Discard)
	require.NoError(t, err)
	_, err = io.WriteString(f, "gone")
	require.NoError(t, err)
	require.NoError(t, f.Commit())
}

func TestBadPaths(t *testing.T) {
	dir := t.TempDir()
	_, err := Create(dir, io.Discard)
	require.ErrorContains(t, err, "is a directory")
	missing := filepath.Join(dir, "no", "such", "x.dot")
	_, err = Create(missing, io.Discard)
	require.ErrorContains(t, err, "cannot create "+missing)
	require.Empty(t, entries(t, dir))
}

// TestDeviceMayBeInputAndOutput: "conc monitor - --dot /dev/null < /dev/null"
// destroys nothing.
func TestDeviceMayBeInputAndOutput(t *testing.T) {
	st, err := os.Stat(os.DevNull)
	require.NoError(t, err)
	f, err := Create(os.DevNull, io.Discard, st)
	require.NoError(t, err)
	require.NoError(t, f.Commit())
}

// TestReadOnlyFile: a file the user may not write is refused exactly when
// os.Create would refuse it (root may write it), and is never changed by
// a refusal.
func TestReadOnlyFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ro.dot")
	write(t, out, "earlier")
	require.NoError(t, os.Chmod(out, 0o444))
	probe, oserr := os.OpenFile(out, os.O_WRONLY, 0)
	if oserr == nil {
		probe.Close()
	}
	f, err := Create(out, io.Discard)
	require.Equal(t, oserr == nil, err == nil, "os: %v, Create: %v", oserr, err)
	if f != nil {
		f.Discard()
	}
	require.Equal(t, "earlier", read(t, out))
}
