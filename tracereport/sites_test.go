package tracereport

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// lostUpdateTrace: T2's write falls between T1's read and write of x.
const lostUpdateTrace = `T1|begin|a.java:1
T1|r(x)|a.java:2
T2|w(x)|b.java:7
T1|w(x)|a.java:3
T1|end|a.java:4
`

// The second reading keeps the command's budget: once --timeout or
// --max-memory has ended the context (during the monitor's own pass), it
// reads nothing, says why in the notes (the command's standard error),
// and the events are shown by line only, instead of reading on past the
// budget.
func TestSecondReadingKeepsTheBudget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lost.std")
	require.NoError(t, os.WriteFile(path, []byte(lostUpdateTrace), 0o644))
	var lines lineSet
	lines.add(2)
	lines.add(3)
	var errb bytes.Buffer
	again := secondReading{path: path, notes: &errb}
	sites, err := again.sites(context.Background(), &lines)
	require.NoError(t, err)
	ev, ok := sites.event(3)
	require.True(t, ok, "read with time to spare")
	require.Equal(t, "w", ev.Op)

	stop := errors.New("memory budget exceeded")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(stop)
	lines = lineSet{}
	lines.add(2)
	lines.add(3)
	sites, err = again.sites(ctx, &lines)
	require.NoError(t, err)
	_, ok = sites.event(3)
	require.False(t, ok)
	require.Equal(t, "monitor: memory budget exceeded: the cycles' events are shown by line only\n", errb.String())
}
