// Package schedtest rebuilds a predict --all schedule's run from the trace
// text, as docs/spec.md §5 states it and independently of the code that
// computed the schedule; the tests of package predict and of cmd/conc
// share it. It imports neither (predict's own tests use it).
package schedtest

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/trace"
)

// Cut is a thread's part of the observed prefix: its events up to line
// Through.
type Cut struct {
	Thread  string
	Through int64
}

// Segment is thread Thread's events from line From to line To.
type Segment struct {
	Thread   string
	From, To int64
}

// Run is the schedule's run: the trace's events (the lines conc reads as
// events, §3's normalisation) of the cut's threads up to their lines, in
// trace order, then each segment's thread's events in its range; with
// dropSync without lock, fork and join events. Each is written as
// --witness-out writes it: THREAD|OP|LINE, from the trace's line.
func Run(t testing.TB, src string, cut []Cut, segs []Segment, dropSync bool) string {
	lines := strings.Split(src, "\n")
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	var evs []trace.Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if !(dropSync && ev.Op.IsSync()) {
			evs = append(evs, ev)
		}
	}
	var b strings.Builder
	take := func(keep func(thread string, line int64) bool) {
		for _, ev := range evs {
			f := strings.Split(lines[ev.Line-1], "|")
			if keep(f[0], ev.Line) {
				fmt.Fprintf(&b, "%s|%s|%d\n", f[0], f[1], ev.Line)
			}
		}
	}
	through := map[string]int64{}
	for _, c := range cut {
		through[c.Thread] = c.Through
	}
	take(func(th string, l int64) bool { return l <= through[th] })
	for _, sg := range segs {
		take(func(th string, l int64) bool { return th == sg.Thread && sg.From <= l && l <= sg.To })
	}
	return b.String()
}
