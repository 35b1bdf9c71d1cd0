package monitor

import (
	"io"
	"slices"

	"github.com/conc-dev/conc/trace"
)

// EventsAt reads r (a second reading of the trace the monitor checked) up to
// the last of lines and returns the events at those lines: what a report
// needs to say which operation, variable and code location (LOC) each
// listed event is. The monitor itself keeps only lines, so that spelling
// out the cycles a report shows costs nothing while it runs. A line with
// no event (a skipped one under --lenient) is left out. Lines are sorted
// in place (a million violations name millions of lines: no copy).
func EventsAt(r *trace.Reader, lines []int64) (map[int64]trace.Event, error) {
	want := lines
	slices.Sort(want)
	want = slices.Compact(want)
	got := make(map[int64]trace.Event, len(want))
	evs := make([]trace.Event, 4096)
	for k := 0; k < len(want); {
		n, err := r.Read(evs)
		for _, ev := range evs[:n] {
			for k < len(want) && want[k] < ev.Line {
				k++ // no event at that line
			}
			if k < len(want) && want[k] == ev.Line {
				got[ev.Line] = ev
				k++
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return got, nil
}
