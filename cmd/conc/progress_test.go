package main

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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

// TestProgressLine drives the display with counters and a clock of its own:
// lines appear while reading goes on, each overwrites the last, and the
// final one has the final counts, the rate over the elapsed time, and the
// share of the file.
func TestProgressLine(t *testing.T) {
	var events, read, clock atomic.Int64
	var out lockedBuffer
	p := &progressLine{w: &out, events: events.Load, bytes: read.Load, total: 4e6,
		now: func() time.Time { return time.Unix(100, clock.Load()) }}
	stop := p.run(time.Millisecond)
	events.Store(1000)
	read.Store(1e6)
	require.Eventually(t, func() bool {
		return strings.Contains(out.String(), "\rconc: read 1000 events, 0.00 M events/s, 1.0 MB of 4.0 MB (25%), 0.0 s")
	}, 5*time.Second, time.Millisecond)
	events.Store(3_000_000)
	read.Store(4e6)
	clock.Store(2e9)
	stop()
	stop() // a second stop is harmless
	all := out.String()
	require.True(t, strings.HasSuffix(all, "\n"), all)
	require.Equal(t, 1, strings.Count(all, "\n"), "one line, overwritten in place")
	last := all[strings.LastIndex(all, "\r")+1:]
	require.Equal(t, "conc: read 3000000 events, 1.50 M events/s, 4.0 MB of 4.0 MB (100%), 2.0 s", strings.TrimRight(last, " \n"))
}

// Standard input has no size: no share is shown.
func TestProgressLineUnknownSize(t *testing.T) {
	p := &progressLine{events: func() int64 { return 7 }, bytes: func() int64 { return 70 }, now: time.Now}
	p.start = p.now()
	require.Contains(t, p.text(), "conc: read 7 events, ")
	require.NotContains(t, p.text(), "%")
}

// TestProgressEndsBeforeAnError: with --progress, the progress line is
// ended before an error is printed, so the error is the last line (the
// final progress line used to come after it).
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
