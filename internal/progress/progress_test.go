package progress

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

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
	p := &Line{W: &out, Events: events.Load, Bytes: read.Load, Total: 4e6,
		Now: func() time.Time { return time.Unix(100, clock.Load()) }}
	stop := p.Run(time.Millisecond)
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
	p := &Line{Events: func() int64 { return 7 }, Bytes: func() int64 { return 70 }, Now: time.Now}
	p.start = p.Now()
	require.Contains(t, p.text(), "conc: read 7 events, ")
	require.NotContains(t, p.text(), "%")
}
