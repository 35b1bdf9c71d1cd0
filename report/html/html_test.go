package html

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all" // the examples are decided by the registered engines
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/report"
)

// page renders r and checks what every page must be: self-contained (no
// script but the step control's, no link, no URL but the SVG namespace and its own arrowheads),
// each <svg> well-formed XML (so every name was escaped), the verdict
// shown.
func page(t *testing.T, r *report.Report) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, Write(&b, r, Options{}))
	s := b.String()
	// The one script is the step control's, inline, in the head.
	require.Equal(t, 1, strings.Count(s, "<script"))
	require.Contains(t, s, "<script>\n"+stepScript+"</script>\n</head>")
	for _, bad := range []string{"<link", "<img", "<iframe", "@import", "src=", "https:"} {
		require.NotContains(t, s, bad)
	}
	require.Equal(t, strings.Count(s, "http:"), strings.Count(s, `xmlns="http://www.w3.org/2000/svg"`), "a URL other than the SVG namespace")
	for _, m := range regexp.MustCompile(`url\(([^)]*)\)`).FindAllStringSubmatch(s, -1) {
		require.True(t, strings.HasPrefix(m[1], "#"), "url(%s) leaves the page", m[1])
	}
	require.Contains(t, s, `<span id="verdict" class="verdict `+r.Verdict+`">`+r.Verdict+`</span>`)
	for _, svg := range regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(s, -1) {
		d := xml.NewDecoder(strings.NewReader(svg))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			require.NoError(t, err, "an SVG is not well-formed:\n%s", svg)
		}
	}
	return s
}

var (
	dataEvent = regexp.MustCompile(`<g class="event( cycle)?[^"]*" data-event="(\d+)"`)
	dataEdge  = regexp.MustCompile(`data-edge="(\d+-\d+)"`)
)

// drawn are the page's data-event values (those of cycle marks apart)
// and its data-edge values.
func drawn(s string) (events, cycle []int, edges []string) {
	for _, m := range dataEvent.FindAllStringSubmatch(s, -1) {
		var i int
		fmt.Sscan(m[2], &i)
		events = append(events, i)
		if m[1] != "" {
			cycle = append(cycle, i)
		}
	}
	for _, m := range dataEdge.FindAllStringSubmatch(s, -1) {
		edges = append(edges, m[1])
	}
	return
}

// checkWitnessPage: the page draws each cycle event once as a cycle mark,
// an arrow per conflict, events in run order (all of them if the run is
// short), and a transaction in red.
func checkWitnessPage(t *testing.T, r *report.Report, s string) {
	w := r.Witness
	events, cycle, edges := drawn(s)
	var wantCycle []int
	var wantEdges []string
	for _, c := range w.Cycle {
		wantCycle = append(wantCycle, c.From, c.To)
		wantEdges = append(wantEdges, fmt.Sprintf("%d-%d", c.From, c.To))
	}
	slices.Sort(wantCycle)
	require.Equal(t, slices.Compact(wantCycle), cycle)
	require.Equal(t, wantEdges, edges)
	require.True(t, slices.IsSorted(events))
	require.Equal(t, len(events), len(slices.Compact(slices.Clone(events))), "an event drawn twice")
	require.Less(t, events[len(events)-1], w.Len())
	if w.Len() <= DefaultLimit {
		require.Len(t, events, w.Len())
	}
	require.Contains(t, s, `class="txn on-cycle interrupted"`, "no transaction stands out")
}

// TestExamplesPages draws every example's witness.
func TestExamplesPages(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.conc")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	violations := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		p, err := lang.Compile(path, src)
		require.NoError(t, err)
		eng, err := engines.Lookup("global")
		require.NoError(t, err)
		if eng.Supports(p, engines.Options{}) != nil {
			continue // recursive: the CLI's browser test covers them
		}
		res, err := eng.Check(context.Background(), p, engines.Options{})
		require.NoError(t, err)
		r, err := report.BuildLean(p, res)
		require.NoError(t, err)
		s := page(t, r)
		if r.Witness != nil {
			violations++
			checkWitnessPage(t, r, s)
		}
	}
	require.Greater(t, violations, 5)
}

// longRun is a violation whose run is longer than the page draws in full:
// A reads x, B runs n transactions, then writes x and reads y, and A
// writes y. Its names need escaping.
func longRun(n int) (*model.Program, engines.Result) {
	const x, y, z = 0, 1, 2
	p := &model.Program{File: "long.conc", Vars: []string{`x<"&'>`, "y", "z"},
		Threads: []*model.Thread{{Name: "<A>", Auto: &model.Automaton{Out: make([][]model.Edge, 1)}},
			{Name: "B&", Auto: &model.Automaton{Out: make([][]model.Edge, 1)}}}}
	ev := func(op model.Op, tgt int32) model.Event {
		return model.Event{Op: op, Target: tgt, Pos: model.Pos{File: "long.conc", Line: 1, Col: 1}}
	}
	step := func(th int32, op model.Op, tgt int32) model.Step { return model.Step{Thread: th, Ev: ev(op, tgt)} }
	run := []model.Step{step(0, model.OpBegin, -1), step(0, model.OpRead, x)}
	for range n {
		run = append(run, step(1, model.OpBegin, -1), step(1, model.OpRead, z), step(1, model.OpEnd, -1))
	}
	bw := len(run) + 1
	run = append(run, step(1, model.OpBegin, -1), step(1, model.OpWrite, x), step(1, model.OpRead, y), step(1, model.OpEnd, -1))
	aw := len(run)
	run = append(run, step(0, model.OpWrite, y), step(0, model.OpEnd, -1))
	w := &model.Witness{Run: run, Cycle: []model.Conflict{{From: 1, To: bw}, {From: bw + 1, To: aw}}}
	return p, engines.Result{Verdict: engines.Violation, Engine: "global", Witness: w}
}

// TestLongWitnessDrawsNeighbourhood: a long run is drawn around its cycle,
// the page says how much it left out, and the gaps add up to it.
func TestLongWitnessDrawsNeighbourhood(t *testing.T) {
	for _, n := range []int{1, 5, 19, 100, 5000} {
		p, res := longRun(n)
		r, err := report.BuildLean(p, res)
		require.NoError(t, err)
		s := page(t, r)
		checkWitnessPage(t, r, s)
		events, _, _ := drawn(s)
		left := 0
		for _, m := range regexp.MustCompile(`<title>(\d+) events? left out`).FindAllStringSubmatch(s, -1) {
			var k int
			fmt.Sscan(m[1], &k)
			left += k
		}
		require.Equal(t, r.Witness.Len(), len(events)+left, "n=%d: drawn and left out", n)
		if r.Witness.Len() > DefaultLimit {
			require.Contains(t, s, fmt.Sprintf("The run has %d events; drawn are %d", r.Witness.Len(), len(events)))
			require.Less(t, len(events), 30)
		}
		require.NotContains(t, s, "<A>")
		require.Contains(t, s, "&lt;A&gt;")
	}
}

// TestNoWitness: a serializable or unknown answer is a page with the
// verdict, the reason and no timeline.
func TestNoWitness(t *testing.T) {
	s := page(t, &report.Report{Verdict: "unknown", Reason: "timeout: <soon>", Engine: "global", Class: "straight-line"})
	require.Contains(t, s, "timeout: &lt;soon&gt;")
	require.NotContains(t, s, "<svg")
	s = page(t, &report.Report{Verdict: "serializable", Engine: "profile", Class: "straight-line"})
	require.NotContains(t, s, "<svg")
}

// TestFragmentIsThePageBody: WriteFragment writes what the page's body holds.
func TestFragmentIsThePageBody(t *testing.T) {
	p, res := longRun(3)
	r, err := report.BuildLean(p, res)
	require.NoError(t, err)
	var full, frag bytes.Buffer
	require.NoError(t, Write(&full, r, Options{}))
	require.NoError(t, WriteFragment(&frag, r, Options{}))
	require.Contains(t, full.String(), "<body>\n"+frag.String()+"</body>")
	require.True(t, strings.HasPrefix(frag.String(), `<div class="conc-report">`))
}

// TestLongWitnessSpellsOnlyWhatItDraws: a page of a long lean witness
// spells out only the events it draws, so its allocations do not grow
// with the run (a count, not a timing: 100 times the run, not 10 times
// the allocations).
func TestLongWitnessSpellsOnlyWhatItDraws(t *testing.T) {
	allocs := func(n int) float64 {
		p, res := longRun(n)
		r, err := report.BuildLean(p, res)
		require.NoError(t, err)
		return testing.AllocsPerRun(3, func() {
			require.NoError(t, Write(io.Discard, r, Options{}))
		})
	}
	small, large := allocs(1000), allocs(100000)
	require.Less(t, large, 2*small, "allocations grow with the run: %v for 3k events, %v for 300k", small, large)
}

// BenchmarkLongWitnessPage is the page of a 300,000-event witness, drawn
// around its cycle.
func BenchmarkLongWitnessPage(b *testing.B) {
	p, res := longRun(100000)
	r, err := report.BuildLean(p, res)
	require.NoError(b, err)
	for b.Loop() {
		require.NoError(b, Write(io.Discard, r, Options{}))
	}
}

// TestCrossingArrowLabelsApart: two arrows that cross at their midpoints
// (a lost update: each thread reads, then writes after the other's read,
// as in examples/bank.conc) get labels that do not cover each other.
func TestCrossingArrowLabelsApart(t *testing.T) {
	d := &diagram{lanes: []string{"A", "B"}, cols: make([]column, 5), marks: []mark{
		{col: 0, lane: 0}, {col: 3, lane: 0}, // A reads, A writes
		{col: 1, lane: 1}, {col: 4, lane: 1}, // B reads, B writes
	}}
	d.arrows = []arrow{{from: 0, to: 3, label: "balance", edge: "0-4"}, {from: 2, to: 1, label: "balance", edge: "1-3"}}
	spots := d.labelSpots()
	require.Len(t, spots, 2)
	require.False(t, spots[0].rect().meets(spots[1].rect()), "%+v", spots)
	w, h := spots[0].size()
	require.InDelta(t, 0.62*11*7, w, 0.01)
	require.InDelta(t, 13, h, 0.01)
}

// TestWitnessArrowLabels: a witness's arrows are labelled as docs/spec.md
// §5 (--html) says: the variable of an access conflict, release→acquire m
// for a lock edge.
func TestWitnessArrowLabels(t *testing.T) {
	p := &model.Program{File: "lock.conc", Vars: []string{"x"}, Locks: []string{"L"},
		Threads: []*model.Thread{{Name: "A", Auto: &model.Automaton{Out: make([][]model.Edge, 1)}},
			{Name: "B", Auto: &model.Automaton{Out: make([][]model.Edge, 1)}}}}
	step := func(th int32, op model.Op, tgt int32) model.Step {
		return model.Step{Thread: th, Ev: model.Event{Op: op, Target: tgt, Pos: model.Pos{File: "lock.conc", Line: 1, Col: 1}}}
	}
	run := []model.Step{step(0, model.OpBegin, -1), step(0, model.OpAcquire, 0), step(0, model.OpRelease, 0),
		step(1, model.OpBegin, -1), step(1, model.OpAcquire, 0), step(1, model.OpWrite, 0), step(1, model.OpRelease, 0), step(1, model.OpEnd, -1),
		step(0, model.OpRead, 0), step(0, model.OpEnd, -1)}
	w := &model.Witness{Run: run, LockEdges: true, Cycle: []model.Conflict{{From: 2, To: 4}, {From: 5, To: 8}}}
	r, err := report.Build(p, engines.Result{Verdict: engines.Violation, Engine: "global", Witness: w})
	require.NoError(t, err)
	s := page(t, r)
	require.Contains(t, s, ">release→acquire L</text>")
	require.Contains(t, s, ">x</text>")
}
