package tracereport

import (
	"context"
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// site is what a report says of an event besides its line, each name an
// index into siteTable.names. A trace's cycles name millions of lines but
// few sites (the same code run again and again), so a line keeps an index
// into the distinct sites: 4 bytes.
type site struct {
	thread, target, loc int32
	op                  model.Op
}

// siteTable resolves the lines of a lineSet to their events' sites, from
// a second reading of the trace (trace.LinesAt).
type siteTable struct {
	lines *lineSet
	at    []int32 // per member, by rank: index into sites, -1 not read
	sites []site
	index map[site]int32
	names []string
	ids   map[string]int32
}

// resolveSites reads src (the trace called name) up to the set's last
// line, parsing its lines only, keeping ctx's budget; the lines it did not reach (ctx ended) stay
// unknown. The error is LinesAt's.
func resolveSites(ctx context.Context, src io.Reader, name string, lines *lineSet) (*siteTable, error) {
	t := &siteTable{lines: lines, at: make([]int32, lines.seal()), index: map[site]int32{}, ids: map[string]int32{}}
	for i := range t.at {
		t.at[i] = -1
	}
	err := trace.LinesAt(ctx, src, name, lines.next, func(line int64, f trace.Fields) {
		s := site{thread: t.id(f.Thread), target: t.id(f.Target), loc: t.id(f.Loc), op: f.Op}
		k, ok := t.index[s]
		if !ok {
			k = int32(len(t.sites))
			t.index[s] = k
			t.sites = append(t.sites, s)
		}
		t.at[lines.rank(line)] = k
	})
	return t, err
}

// id interns a name (no allocation for a known one).
func (t *siteTable) id(b []byte) int32 {
	if k, ok := t.ids[string(b)]; ok {
		return k
	}
	k := int32(len(t.names))
	t.names = append(t.names, string(b))
	t.ids[string(b)] = k
	return k
}

// event is the event at line, named, if it was read.
func (t *siteTable) event(line int) (report.TraceEvent, bool) {
	if t == nil || !t.lines.has(int64(line)) {
		return report.TraceEvent{}, false
	}
	k := t.at[t.lines.rank(int64(line))]
	if k < 0 {
		return report.TraceEvent{}, false
	}
	s := t.sites[k]
	return report.NewTraceEvent(line, t.names[s.thread], s.op, trace.OpName[s.op], t.names[s.target], t.names[s.loc]), true
}
