package outfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// RemovePending removes the temporary files of outputs not yet committed,
// leaves the committed ones and the earlier files alone, and refuses new
// ones until Reopen; a Commit after it fails instead of renaming.
func TestRemovePending(t *testing.T) {
	dir := t.TempDir()
	done, open, old := filepath.Join(dir, "done"), filepath.Join(dir, "open"), filepath.Join(dir, "old")
	require.NoError(t, os.WriteFile(old, []byte("before"), 0o644))
	a, err := Create(done, nil)
	require.NoError(t, err)
	_, err = a.Write([]byte("a"))
	require.NoError(t, err)
	require.NoError(t, a.Commit())
	b, err := Create(open, nil)
	require.NoError(t, err)
	c, err := Create(old, nil)
	require.NoError(t, err)
	_, err = c.Write([]byte("after"))
	require.NoError(t, err)

	RemovePending()
	defer Reopen()
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	require.NoError(t, err)
	hidden, err := filepath.Glob(filepath.Join(dir, ".*"))
	require.NoError(t, err)
	require.ElementsMatch(t, []string{done, old}, names)
	require.Empty(t, hidden)
	require.ErrorIs(t, c.Commit(), ErrInterrupted)
	b.Discard()
	got, err := os.ReadFile(old)
	require.NoError(t, err)
	require.Equal(t, "before", string(got))
	_, err = Create(filepath.Join(dir, "new"), nil)
	require.ErrorIs(t, err, ErrInterrupted)
	Reopen()
	d, err := Create(filepath.Join(dir, "new"), nil)
	require.NoError(t, err)
	d.Discard()
}
