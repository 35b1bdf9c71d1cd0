package main

import (
	"context"
	"io"
	"math/bits"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// lineSet is a set of trace lines, one bit a line; once sealed, each
// member has a rank (its index among the members), so that data about the
// members sits in a slice, not a map.
type lineSet struct {
	words []uint64
	ranks []int32 // per word: the members in the words before it (seal)
	last  int64
}

// add puts line in the set (0, no line, is left out).
func (s *lineSet) add(line int64) {
	if line <= 0 {
		return
	}
	for line>>6 >= int64(len(s.words)) {
		s.words = append(s.words, 0)
	}
	s.words[line>>6] |= 1 << (line & 63)
	s.last = max(s.last, line)
}

func (s *lineSet) has(line int64) bool {
	w := line >> 6
	return line > 0 && w < int64(len(s.words)) && s.words[w]&(1<<(line&63)) != 0
}

// next is the least member after line, 0 if none (trace.LinesAt's next).
func (s *lineSet) next(after int64) int64 {
	l := after + 1
	w := int(l >> 6)
	if w >= len(s.words) {
		return 0
	}
	word := s.words[w] &^ (1<<(l&63) - 1)
	for word == 0 {
		if w++; w == len(s.words) {
			return 0
		}
		word = s.words[w]
	}
	return int64(w<<6 + bits.TrailingZeros64(word))
}

// seal numbers the members and returns how many there are.
func (s *lineSet) seal() int {
	s.ranks = make([]int32, len(s.words))
	n := 0
	for w, word := range s.words {
		s.ranks[w] = int32(n)
		n += bits.OnesCount64(word)
	}
	return n
}

// rank is a member's index among the members (after seal).
func (s *lineSet) rank(line int64) int {
	w := line >> 6
	below := s.words[w] & (1<<(line&63) - 1)
	return int(s.ranks[w]) + bits.OnesCount64(below)
}

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
