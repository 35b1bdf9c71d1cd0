package pass

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/monitor/internal/montest"
	"github.com/conc-dev/conc/trace"
)

// lockEdges are the read-ahead tests' options: lock edges, the conflict
// graph alone.
var lockEdges = Options{TraceOptions: monitor.TraceOptions{LockEdges: true}}

func pipeTrace(t *testing.T, events int64) []byte {
	var buf bytes.Buffer
	o := montest.BenchGen
	o.Events = events
	_, err := trace.NewGen(o).WriteTo(&buf)
	require.NoError(t, err)
	return buf.Bytes()
}

// Check with read-ahead gives the answer of stepping the events one
// by one on the caller's goroutine.
func TestCheckReadAheadSameAnswer(t *testing.T) {
	data := pipeTrace(t, 100_000)
	r, err := trace.NewReader(bytes.NewReader(data), "p.std", trace.Options{})
	require.NoError(t, err)
	got, err := Check(context.Background(), r, lockEdges)
	require.NoError(t, err)

	r2, err := trace.NewReader(bytes.NewReader(data), "p.std", trace.Options{})
	require.NoError(t, err)
	m := monitor.NewTraceMonitor(monitor.TraceOptions{LockEdges: true})
	for {
		ev, err := r2.Next()
		if err != nil {
			break
		}
		m.Step(ev)
	}
	want := Result{TraceResult: m.Finish(), Threads: r2.Threads().Names()}
	require.True(t, want.Violation)
	got.Stats.Millis, want.Stats.Millis = 0, 0
	require.Equal(t, want, got)
}

// A bad line is an error, a cancelled context a stop, and either way the
// reading goroutine is gone when Check returns (the race detector
// would see a later use of the reader otherwise).
func TestCheckReadAheadStops(t *testing.T) {
	data := string(pipeTrace(t, 20_000)) + "T0|nonsense\n"
	r, err := trace.NewReader(strings.NewReader(data), "p.std", trace.Options{})
	require.NoError(t, err)
	_, err = Check(context.Background(), r, lockEdges)
	var te *trace.Error
	require.True(t, errors.As(err, &te), "%v", err)

	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("enough"))
	r, err = trace.NewReader(strings.NewReader(data), "p.std", trace.Options{})
	require.NoError(t, err)
	res, err := Check(ctx, r, lockEdges)
	require.NoError(t, err)
	require.Equal(t, "enough", res.Stopped)
	require.Positive(t, res.Stats.Events)
	require.NotEmpty(t, r.Threads().Names())
}
