//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// A trace from a pipe (`conc monitor <(zcat t.gz)`) is read once, like
// standard input: the cycles' events (--cycles) are named by line only,
// with a note. Opening the pipe again for a second reading would wait
// forever for a writer (go test's timeout would end it).
func TestMonitorPipeIsReadOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "trace.fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			_, _ = w.WriteString(lostUpdateTrace)
			w.Close()
		}
	}()
	out := conc("monitor", fifo, "--cycles", "--quiet")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "    T1's event at line 2 comes before T2's event at line 3\n")
	require.Contains(t, out.stderr, "a trace on standard input or a pipe is read once")
}
