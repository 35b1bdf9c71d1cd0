package projtest

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/monitor/pass"
	"github.com/conc-dev/conc/trace"
)

// RequireSTDRun: std, a witness of the trace src written as STD
// (--witness-out), is a trace whose every line is an original line's
// event (same thread and op, LOC its line), and which conc monitor's
// checker finds not serializable.
func RequireSTDRun(t *testing.T, src, std string, lockEdges bool) {
	t.Helper()
	orig := strings.Split(src, "\n")
	for _, l := range strings.Split(strings.TrimSpace(std), "\n") {
		f := strings.Split(l, "|")
		require.Len(t, f, 3, l)
		n, err := strconv.Atoi(f[2])
		require.NoError(t, err)
		o := strings.Split(orig[n-1], "|")
		require.Equal(t, o[0]+"|"+o[1], f[0]+"|"+f[1], "witness line %q", l)
	}
	r, err := trace.NewReader(strings.NewReader(std), "w.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	res, err := pass.Check(context.Background(), r, pass.Options{TraceOptions: monitor.TraceOptions{LockEdges: lockEdges}})
	require.NoError(t, err)
	require.True(t, res.Violation, "trace:\n%s\nwitness:\n%s", src, std)
}
