package main

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/outfile"
)

// A signal while an output is being written (monitor reading a long trace
// from a pipe, --dot to a file) removes the temporary file and exits 128+N;
// an earlier file of the output's name keeps its contents.
func TestSignalRemovesTemporaryOutputs(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := t.TempDir()
		dot := filepath.Join(dir, "x.dot")
		require.NoError(t, os.WriteFile(dot, []byte("before\n"), 0o644))
		pr, pw := io.Pipe()
		defer pw.Close()
		go pw.Write([]byte("T|begin\nT|r(x)\n")) // then the trace goes on, never ending
		sigs := make(chan os.Signal, 1)
		code := make(chan int, 1)
		var errb lockedBuffer
		go func() { code <- runUntil(sigs, []string{"monitor", "-", "--dot", dot}, pr, io.Discard, &errb) }()
		if !waitForTemp(dir) {
			t.Fatalf("no temporary output appeared; stderr %q", errb.String())
		}
		sigs <- sig
		require.Equal(t, 128+int(sig), <-code)
		outfile.Reopen()
		require.Contains(t, errb.String(), "conc: interrupted")
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.Len(t, entries, 1, "only x.dot: %v", entries)
		b, err := os.ReadFile(dot)
		require.NoError(t, err)
		require.Equal(t, "before\n", string(b))
	}
}

// waitForTemp waits until the run has created its temporary output.
func waitForTemp(dir string) bool {
	for range 500 {
		if m, _ := filepath.Glob(filepath.Join(dir, ".x.dot.tmp*")); len(m) > 0 {
			return true
		}
		time.Sleep(2 * time.Millisecond)
	}
	return false
}
