package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestProgress: --progress prints the events read, their rate, the bytes
// and the time on standard error and leaves the answer alone; by default it
// is off when standard error is not a terminal (here, a buffer).
func TestProgress(t *testing.T) {
	path := file(t, "t.std", "0|begin\n0|r(x)\n1|w(x)\n0|w(x)\n0|end\n")
	for _, cmd := range []string{"monitor", "predict"} {
		o := conc(cmd, path, "--progress", "--quiet")
		require.Equal(t, exitViolation, o.code, o.stderr)
		require.Contains(t, o.stderr, "conc: read 5 events, ")
		require.Contains(t, o.stderr, " MB of 0.0 MB (100%), ")
		require.Contains(t, o.stdout, "violation")

		o = conc(cmd, path, "--quiet")
		require.Equal(t, exitViolation, o.code, o.stderr)
		require.NotContains(t, o.stderr, "conc: read")

		o = conc(cmd, path, "--progress=false", "--quiet")
		require.NotContains(t, o.stderr, "conc: read")
	}
}

// lockedBuffer is written by the progress goroutine and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestProgressEndsBeforeAnError: with --progress, the progress line is
// ended before an error is printed, so the error is the last line (no
// final progress line comes after it).
func TestProgressEndsBeforeAnError(t *testing.T) {
	_, gz := gzipFile(t, "t.std.gz", strings.Repeat("0|r(x)\n", 2000))
	cut := file(t, "cut.std.gz", string(gz[:len(gz)/2]))
	for _, cmd := range []string{"monitor", "predict"} {
		o := conc(cmd, cut, "--progress")
		require.Equal(t, exitUsage, o.code, cmd)
		lines := strings.Split(strings.TrimRight(o.stderr, "\n"), "\n")
		require.Regexp(t, `cut\.std\.gz:\d+: reading stopped`, lines[len(lines)-1], "%s: %q", cmd, o.stderr)
		require.Contains(t, o.stderr, "conc: read ", cmd)
	}
}
