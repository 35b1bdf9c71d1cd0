package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// ev is an event of test.conc at line l, column c.
func ev(op model.Op, target int32, l int32, c int32) model.Event {
	return model.Event{Op: op, Target: target, Pos: model.Pos{File: "test.conc", Line: int64(l), Col: c}}
}

// straight is a straight-line automaton emitting evs.
func straight(evs ...model.Event) *model.Automaton {
	a := &model.Automaton{Out: make([][]model.Edge, len(evs)+1)}
	for i, e := range evs {
		a.Out[i] = []model.Edge{{To: int32(i + 1), Ev: e}}
	}
	return a
}

// runOf builds a run from (thread, event) pairs.
func runOf(steps ...any) []model.Step {
	var run []model.Step
	for i := 0; i < len(steps); i += 2 {
		run = append(run, model.Step{Thread: int32(steps[i].(int)), Ev: steps[i+1].(model.Event)})
	}
	return run
}

// threadAutos gives every thread the straight-line automaton of its events
// in run, so the run is a run of p.
func threadAutos(p *model.Program, run []model.Step) {
	evs := make([][]model.Event, len(p.Threads))
	for _, s := range run {
		evs[s.Thread] = append(evs[s.Thread], s.Ev)
	}
	for i, t := range p.Threads {
		t.Auto = straight(evs[i]...)
	}
}

// straightPaths is every thread's path through its straight-line automaton.
func straightPaths(p *model.Program, run []model.Step) [][]model.Move {
	paths := make([][]model.Move, len(p.Threads))
	for _, s := range run {
		paths[s.Thread] = append(paths[s.Thread], model.Move{From: int32(len(paths[s.Thread]))})
	}
	return paths
}

const (
	tA = 0
	tB = 1
)

// bank is the lost update: A reads, B writes, A writes.
func bank() (*model.Program, engines.Result) {
	const bal = 0
	p := &model.Program{File: "test.conc", Vars: []string{"balance"},
		Threads: []*model.Thread{{Name: "A"}, {Name: "B"}}}
	run := runOf(
		tA, ev(model.OpBegin, -1, 6, 3),
		tA, ev(model.OpRead, bal, 7, 10),
		tB, ev(model.OpBegin, -1, 6, 3),
		tB, ev(model.OpWrite, bal, 8, 11),
		tB, ev(model.OpEnd, -1, 9, 3),
		tA, ev(model.OpWrite, bal, 8, 11),
		tA, ev(model.OpEnd, -1, 9, 3),
	)
	threadAutos(p, run)
	w := &model.Witness{Run: run, Paths: straightPaths(p, run), Cycle: []model.Conflict{{From: 1, To: 3}, {From: 3, To: 5}}}
	return p, engines.Result{Verdict: engines.Violation, Engine: "brute", Witness: w,
		Stats: engines.Stats{States: 12, Events: 7}}
}

// locked is a run with a lock and two transactions of A; cycle picks which
// of its conflict cycles the witness reports.
func locked(cycle ...model.Conflict) (*model.Program, engines.Result) {
	const x, y, m = 0, 1, 0
	p := &model.Program{Vars: []string{"x", "y"}, Locks: []string{"m"},
		Threads: []*model.Thread{{Name: "A"}, {Name: "B"}}}
	run := runOf(
		tB, ev(model.OpBegin, -1, 10, 3),
		tB, ev(model.OpWrite, x, 11, 11),
		tA, ev(model.OpBegin, -1, 2, 3),
		tA, ev(model.OpRead, x, 3, 10),
		tA, ev(model.OpAcquire, m, 4, 5),
		tA, ev(model.OpRelease, m, 4, 5),
		tA, ev(model.OpEnd, -1, 5, 3),
		tA, ev(model.OpBegin, -1, 6, 3),
		tA, ev(model.OpWrite, y, 6, 19),
		tA, ev(model.OpEnd, -1, 6, 3),
		tB, ev(model.OpAcquire, m, 12, 5),
		tB, ev(model.OpRead, y, 12, 17),
		tB, ev(model.OpRelease, m, 12, 5),
		tB, ev(model.OpEnd, -1, 13, 3),
	)
	threadAutos(p, run)
	w := &model.Witness{Run: run, Paths: straightPaths(p, run), Cycle: cycle, LockEdges: true}
	return p, engines.Result{Verdict: engines.Violation, Engine: "global", Witness: w,
		Stats: engines.Stats{States: 345, Events: 1}}
}

type goldenCase struct {
	name   string
	report func(t *testing.T) *Report
}

func build(p *model.Program, res engines.Result) func(t *testing.T) *Report {
	return func(t *testing.T) *Report {
		r, err := Build(p, res)
		require.NoError(t, err)
		return r
	}
}

func cases() []goldenCase {
	bp, bres := bank()
	lp, lres := locked(model.Conflict{From: 1, To: 3}, model.Conflict{From: 5, To: 10})
	pp, pres := locked(model.Conflict{From: 1, To: 3}, model.Conflict{From: 6, To: 7}, model.Conflict{From: 8, To: 11})
	opt := bres
	opt.Reason = "optimistic: --ignore-sync dropped lock, fork and join events"
	unknown := engines.Result{Verdict: engines.Unknown, Reason: "timeout after 1s", Engine: "global"}
	safe := engines.Result{Verdict: engines.Serializable, Engine: "profile", Stats: engines.Stats{States: 1}}
	end := 90
	return []goldenCase{
		{"bank", build(bp, bres)},
		{"lock", build(lp, lres)},
		{"program-order", build(pp, pres)},
		{"ignore-sync", build(bp, opt)},
		{"unknown", build(lp, unknown)},
		{"serializable", build(bp, safe)},
		{"monitor", func(t *testing.T) *Report {
			r := build(bp, bres)(t)
			r.Engine = "monitor"
			r.First = 40
			r.Violations = []Violation{
				{Thread: "A", Begin: 17, End: &end, Out: 18, In: 41, Cycle: []TraceStep{{"B", 40, 39}}},
				{Thread: "B", Begin: 39, Out: 40, In: 40, Cycle: []TraceStep{{"A", 41, 17}, {"A", 18, 17}}},
			}
			GroupViolations(r, unread)
			return r
		}},
		{"monitor-groups", monitorGroups},
		{"monitor-elided", func(t *testing.T) *Report {
			r := &Report{Verdict: "violation", Engine: "monitor", Class: "straight-line", Threads: 3, Vars: 2,
				First: 12, Stats: engines.Stats{States: 7, Events: 30},
				Violations: []Violation{
					{Thread: "T1", Begin: 3, Out: 3, Cycle: []TraceStep{{"T2", 5, 5}, {"T3", 9, 9}}, Elided: 4, ElidedAt: 1},
					{Thread: "T2", Begin: 5, End: &end, Out: 5, Cycle: []TraceStep{{"T3", 9, 9}, {"T1", 12, 12}}},
				}}
			GroupViolations(r, unread)
			return r
		}},
	}
}

// unread resolves no line: a trace read from standard input, which conc
// monitor cannot read again to name its events.
func unread(int) (TraceEvent, bool) { return TraceEvent{}, false }

// TestGolden renders every case with every renderer into one golden file per
// renderer; -update rewrites them.
func TestGolden(t *testing.T) {
	renderers := map[string]func(*bytes.Buffer, *Report) error{
		"text.golden":  func(b *bytes.Buffer, r *Report) error { return WriteText(b, r, TextOptions{}) },
		"json.golden":  func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) },
		"dot.golden":   func(b *bytes.Buffer, r *Report) error { return WriteDOT(b, r) },
		"quiet.golden": func(b *bytes.Buffer, r *Report) error { return WriteText(b, r, TextOptions{Quiet: true}) },
	}
	for file, render := range renderers {
		var got bytes.Buffer
		for _, c := range cases() {
			got.WriteString("== " + c.name + " ==\n")
			require.NoError(t, render(&got, c.report(t)), c.name)
		}
		path := filepath.Join("testdata", file)
		if *update {
			require.NoError(t, os.WriteFile(path, got.Bytes(), 0o644))
			continue
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "run go test ./report -update to create it")
		require.Equal(t, string(want), got.String(), file)
	}
}

// monitorGroups is conc monitor's grouped answer on a lost update of
// RoadRunner-style numeric threads, repeated, and one lock-passing cycle
// with an elided middle: three groups.
func monitorGroups(t *testing.T) *Report {
	end5, end3, end25 := 5, 3, 25
	n := int64(3)
	r := &Report{Verdict: "violation", Engine: "monitor", Class: "straight-line", Threads: 2, Vars: 1, Locks: 1,
		First: 4, Violating: &n, Stats: engines.Stats{States: 3, Events: 30}}
	r.Violations = []Violation{
		{Thread: "0", Begin: 1, End: &end5, Out: 2, In: 4, Cycle: []TraceStep{{"1", 3, 3}}},
		{Thread: "1", Begin: 3, End: &end3, Out: 3, In: 3, Cycle: []TraceStep{{"0", 4, 1}, {"0", 2, 1}}},
		{Thread: "0", Begin: 20, End: &end25, Out: 21, Cycle: []TraceStep{{"1", 22, 22}}, Elided: 2, ElidedAt: 1},
	}
	ev := func(line int, thread string, op model.Op, std, target, loc string) TraceEvent {
		return NewTraceEvent(line, thread, op, std, target, loc)
	}
	events := map[int]TraceEvent{
		2:  ev(2, "0", model.OpRead, "r", "x", "A.java:2"),
		3:  ev(3, "1", model.OpWrite, "w", "x", "B.java:7"),
		4:  ev(4, "0", model.OpWrite, "w", "x", "A.java:3"),
		21: ev(21, "0", model.OpRelease, "rel", "m", "A.java:9"),
		22: ev(22, "1", model.OpAcquire, "acq", "m", "B.java:1"),
	}
	GroupViolations(r, func(line int) (TraceEvent, bool) { e, ok := events[line]; return e, ok })
	require.Len(t, r.Groups, 3)
	return r
}
