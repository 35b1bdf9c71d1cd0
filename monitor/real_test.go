package monitor

import (
	flagpkg "flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/trace"
)

var update = flagpkg.Bool("update", false, "rewrite testdata/traces/*.want from the naive checker")

func readTrace(t testing.TB, path string) (*trace.Reader, []trace.Event) {
	r, err := trace.Open(path, trace.Options{})
	require.NoError(t, err)
	defer r.Close()
	var evs []trace.Event
	for {
		e, err := r.Next()
		if err == io.EOF {
			return r, evs
		}
		require.NoError(t, err, path)
		evs = append(evs, e)
	}
}

// summary is an answer in a few words: verdict, first line, the cyclic
// transactions by thread and begin line.
func summary(first int64, cyclic []string) string {
	sort.Strings(cyclic)
	return fmt.Sprintf("first=%d cyclic=%d [%s]", first, len(cyclic), strings.Join(cyclic, " "))
}

// TestTraceExcerpts runs the monitor on the real-trace excerpts, with and
// without lock edges, and checks it against the naive checker and against
// the recorded answers (the reduced excerpts keep RAPID's violating event
// last, so with lock edges first is the excerpt's last line).
func TestTraceExcerpts(t *testing.T) {
	paths, err := filepath.Glob("../testdata/traces/jgf-*.std*")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(paths), 6)
	for _, path := range paths {
		r, evs := readTrace(t, path)
		threads := r.Threads()
		var b strings.Builder
		for _, lockEdges := range []bool{true, false} {
			want := naiveCheck(evs, lockEdges)
			var wantSet []string
			for _, tx := range want.cyclic {
				wantSet = append(wantSet, fmt.Sprintf("%s@%d", threads.Name(tx.thread), tx.begin))
			}
			got := runMonitor(evs, TraceOptions{LockEdges: lockEdges, MaxCycle: 1 << 20}, 1, ^uint64(0))
			var gotSet []string
			for _, v := range got.Violations {
				gotSet = append(gotSet, fmt.Sprintf("%s@%d", threads.Name(v.Thread), v.Begin))
				checkReportedCycle(t, want, v, lockEdges, path)
			}
			require.Equal(t, summary(want.first, wantSet), summary(got.First, gotSet), path)
			fmt.Fprintf(&b, "lock-edges=%v %s\n", lockEdges, summary(got.First, gotSet))
			if lockEdges && strings.Contains(path, "reduced") {
				require.Equal(t, evs[len(evs)-1].Line, got.First, path)
			}
		}
		wantFile := strings.TrimSuffix(strings.TrimSuffix(path, ".gz"), ".std") + ".want"
		if *update {
			require.NoError(t, os.WriteFile(wantFile, []byte(b.String()), 0o644))
		}
		recorded, err := os.ReadFile(wantFile)
		require.NoError(t, err)
		require.Equal(t, string(recorded), b.String(), path)
	}
}
