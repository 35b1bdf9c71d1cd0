package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/monitor/pass"
	"github.com/conc-dev/conc/report/predicted"
	"github.com/conc-dev/conc/testkit/schedtest"
	"github.com/conc-dev/conc/trace"
)

// TestPredictAllGolden: conc predict --all's text for two excerpts kept as
// golden files: pair-locked (two groups, one from predict's answer, one
// from the lock-aware two-thread finder) and sor (one group, three
// patterns); --max-groups 1 leaves the second group of pair-locked out
// and says so.
func TestPredictAllGolden(t *testing.T) {
	dir := "../../testdata/traces"
	for _, name := range []string{"pair-locked", "jgf-sor-reduced"} {
		out := conc("predict", "--all", filepath.Join(dir, name+".std"), "--quiet")
		require.Equal(t, exitViolation, out.code, out.stderr)
		require.Empty(t, out.stderr)
		golden(t, filepath.Join("predict", name+".all.txt"), out.stdout)
	}
	out := conc("predict", "--all", filepath.Join(dir, "pair-locked.std"), "--quiet", "--max-groups", "1")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "group 1: ")
	require.NotContains(t, out.stdout, "group 2: ")
	require.Contains(t, out.stdout, "... and 1 more group (--max-groups 0 shows all)\n")

	// A serializable trace answers as predict does.
	out = conc("predict", "--all", filepath.Join(dir, "jgf-raytracer-reduced.std"), "--quiet")
	require.Equal(t, exitSerializable, out.code, out.stderr)
	require.Equal(t, conc("predict", filepath.Join(dir, "jgf-raytracer-reduced.std"), "--quiet").stdout, out.stdout)
}

// TestPredictAllJSONAndWitness: the JSON lists every group with its
// witness's length and cycle; --witness-out
// writes the first group's witness, which conc monitor flags; --dot and
// --html are refused with --all (exit 2).
func TestPredictAllJSONAndWitness(t *testing.T) {
	path := "../../testdata/traces/pair-locked.std"
	wit := filepath.Join(t.TempDir(), "w.std")
	out := conc("predict", "--all", path, "--format", "json", "--witness-out", wit)
	require.Equal(t, exitViolation, out.code, out.stderr)
	var got struct {
		Verdict string
		Groups  []struct {
			Signature     string
			Count         int
			First         int
			Source        string
			Variables     []string
			WitnessEvents int `json:"witness_events"`
			Cycle         []struct{ From, To map[string]string }
		}
		Dropped *int
		Stats   map[string]any
	}
	require.NoError(t, json.Unmarshal([]byte(out.stdout), &got), out.stdout)
	require.Equal(t, "violation", got.Verdict)
	require.Len(t, got.Groups, 2)
	require.NotNil(t, got.Dropped)
	for _, g := range got.Groups {
		require.Positive(t, g.WitnessEvents)
		require.GreaterOrEqual(t, len(g.Cycle), 2)
		for _, c := range g.Cycle {
			require.NotEmpty(t, c.From["thread"])
			require.Contains(t, c.To["pos"], "pair-locked.std:")
		}
		require.NotEmpty(t, g.Signature)
		require.Positive(t, g.Count)
		require.NotEmpty(t, g.Variables)
	}
	b, err := os.ReadFile(wit)
	require.NoError(t, err)
	lines := strings.Count(string(b), "\n")
	require.True(t, lines > 0 && lines <= got.Groups[0].WitnessEvents,
		"the first group's witness, at most one line an event (%d lines)", lines)
	mon := conc("monitor", wit, "--quiet")
	require.Equal(t, exitViolation, mon.code, mon.stdout+mon.stderr)

	for _, flag := range []string{"--dot", "--html"} {
		out := conc("predict", "--all", path, flag, filepath.Join(t.TempDir(), "x"))
		require.Equal(t, exitUsage, out.code)
		require.Contains(t, out.stderr, "without --all")
	}
}

// TestPredictAllDeadline: a deadline while reading is unknown (exit 3), as
// for predict. And 400 independent bugs make 400 groups, all listed with
// --max-groups 0 (a timing-free check of the many-groups path; the
// deadline during the witnesses' building: TestPredictAllStopBuilding).
func TestPredictAllDeadline(t *testing.T) {
	out := conc("predict", "--all", "../../testdata/traces/pair-locked.std", "--timeout", "1ns")
	require.Equal(t, exitUnknown, out.code, out.stdout+out.stderr)
	require.Contains(t, out.stdout, "unknown: ")

	var b strings.Builder
	for k := range 400 { // 400 bugs, 400 groups
		fmt.Fprintf(&b, "T0|begin\nT0|r(x%d)\nT0|r(x%d)\nT0|end\nT1|w(x%d)\n", k, k, k)
	}
	path := filepath.Join(t.TempDir(), "many.std")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	out = conc("predict", "--all", path, "--max-groups", "0", "--quiet")
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, "400 groups of predicted violations")
	require.Contains(t, out.stdout, "group 400: 1 pattern, first at line 1997, thread T0, on x399\n")
}

// TestPredictAllLenient: --lenient's count goes to standard error in text
// and into the JSON's tail, as for predict.
func TestPredictAllLenient(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.std")
	require.NoError(t, os.WriteFile(path, []byte("T0|begin\nT0|r(x)\nbad line\nT1|w(x)\nT0|r(x)\nT0|end\n"), 0o644))
	out := conc("predict", "--all", "--lenient", path)
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stderr, "--lenient skipped 1 line (first at line 3)")
	out = conc("predict", "--all", "--lenient", "--format", "json", path)
	require.Equal(t, exitViolation, out.code, out.stderr)
	require.Contains(t, out.stdout, `"skipped":1,"skipped_kinds":{"malformed":1}`)
}

// TestPredictAllSchedule: every group's JSON schedule, rebuilt from the
// trace as docs/spec.md §5 states it, is flagged by conc monitor's check
// and is the run --group K --witness-out writes, event by event (the
// first, middle and last group's: each is a run of --all); on two
// excerpts and on random traces (conc gen random --trace: with locks,
// lock-free, and lock-free under --ignore-sync; 6 quick, 60 with
// CONC_LONG=1). A K past the last group is a usage error (exit 2), as is
// --group without --all or --witness-out.
func TestPredictAllSchedule(t *testing.T) {
	dir := t.TempDir()
	paths := []string{"../../testdata/traces/pair-locked.std", "../../testdata/traces/jgf-lufact-reduced.std"}
	n := testflag.N(6, 60)
	for seed := range n {
		gen := conc("gen", "random", "--trace", "--seed", fmt.Sprint(seed+1), "--events", "200", "--threads", "4",
			"--vars", "6", "--locks", fmt.Sprint(seed%2), "--txn", "4")
		require.Equal(t, 0, gen.code, gen.stderr)
		paths = append(paths, filepath.Join(dir, fmt.Sprintf("r%d.std", seed)))
		require.NoError(t, os.WriteFile(paths[len(paths)-1], []byte(gen.stdout), 0o644))
	}
	groups := 0
	for i, path := range paths {
		var flags []string
		if i >= 2 && i%3 == 0 {
			flags = []string{"--ignore-sync"}
		}
		groups += requireSchedulesReplay(t, path, flags)
	}
	t.Logf("%d groups on %d traces", groups, len(paths))
	require.Greater(t, groups, len(paths))

	wit := filepath.Join(dir, "w.std")
	out := conc("predict", "--all", paths[0], "--group", "3", "--witness-out", wit)
	require.Equal(t, exitUsage, out.code, out.stdout)
	require.Contains(t, out.stderr, "--group 3: only 2 groups have a witness")
	for _, args := range [][]string{{"--group", "1", "--witness-out", wit}, {"--all", "--group", "1"}, {"--all", "--group", "-1", "--witness-out", wit}} {
		out := conc(append([]string{"predict", paths[0]}, args...)...)
		require.Equal(t, exitUsage, out.code, "%v: %s", args, out.stdout)
	}
	// The groups count from 1: 0 is refused (not read as the default, the
	// first), as are -1 and a number too large for an int.
	for _, k := range []string{"0", "-1", "x", "99999999999999999999"} {
		out := conc("predict", paths[0], "--all", "--group", k, "--witness-out", wit)
		require.Equal(t, exitUsage, out.code, "--group %s: %s", k, out.stdout)
		require.Equal(t, fmt.Sprintf("conc: predict: --group %q: want 1 or more (a group's number); run 'conc predict --help'\n", k), out.stderr)
	}
}

// requireSchedulesReplay checks every group of one trace's --all JSON
// (TestPredictAllSchedule) and returns how many there are.
func requireSchedulesReplay(t *testing.T, path string, flags []string) int {
	out := conc(append([]string{"predict", "--all", "--format", "json", path}, flags...)...)
	require.Contains(t, []int{exitViolation, exitSerializable}, out.code, out.stderr)
	var got struct {
		Groups []struct {
			Group    int
			Schedule predicted.Schedule
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out.stdout), &got), out.stdout)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	ignoreSync := slices.Contains(flags, "--ignore-sync")
	for k, g := range got.Groups {
		require.Equal(t, k+1, g.Group)
		rebuilt := scheduledSTD(t, string(src), g.Schedule, ignoreSync)
		r, err := trace.NewReader(strings.NewReader(rebuilt), "rebuilt.std", trace.Options{})
		require.NoError(t, err)
		res, err := pass.Check(context.Background(), r, pass.Options{})
		require.NoError(t, err)
		require.True(t, res.Violation, "%s group %d: the rebuilt run is serializable:\n%s", path, g.Group, rebuilt)
		if k > 0 && k != len(got.Groups)/2 && k != len(got.Groups)-1 {
			continue // the run itself: the first, middle and last group's (each a full --all)
		}
		wit := filepath.Join(t.TempDir(), "w.std")
		w := conc(append([]string{"predict", "--all", path, "--group", fmt.Sprint(g.Group), "--witness-out", wit}, flags...)...)
		require.Equal(t, exitViolation, w.code, w.stderr)
		want, err := os.ReadFile(wit)
		require.NoError(t, err)
		require.Equal(t, string(want), rebuilt, "%s group %d: schedule %+v", path, g.Group, g.Schedule)
	}
	return len(got.Groups)
}

// scheduledSTD rebuilds a schedule's run from the trace's text
// (testkit/schedtest, as docs/spec.md §5 states it).
func scheduledSTD(t *testing.T, src string, sch predicted.Schedule, ignoreSync bool) string {
	var cut []schedtest.Cut
	for _, c := range sch.Cut {
		cut = append(cut, schedtest.Cut{Thread: c.Thread, Through: c.Through})
	}
	var segs []schedtest.Segment
	for _, sg := range sch.Segments {
		segs = append(segs, schedtest.Segment{Thread: sg.Thread, From: sg.From, To: sg.To})
	}
	return schedtest.Run(t, src, cut, segs, ignoreSync)
}

// TestPredictAllTurnsUnknownIntoViolation: on
// predict/testdata/pair-unknown-c.std (testdata/traces/README.md) conc predict --max-states 3 answers unknown (exit 3) and conc
// predict --all --max-states 3 violation (exit 1), with one group shown and
// one dropped; its --witness-out file is flagged by conc monitor.
func TestPredictAllTurnsUnknownIntoViolation(t *testing.T) {
	path := "../../predict/testdata/pair-unknown-c.std"
	out := conc("predict", "--max-states", "3", path, "--quiet")
	require.Equal(t, exitUnknown, out.code, out.stdout+out.stderr)
	require.Contains(t, out.stdout, "unknown: ")
	require.Contains(t, out.stdout, "the locking is not nested")
	wit := filepath.Join(t.TempDir(), "w.std")
	out = conc("predict", "--all", "--max-states", "3", path, "--quiet", "--witness-out", wit)
	require.Equal(t, exitViolation, out.code, out.stdout+out.stderr)
	require.True(t, strings.HasPrefix(out.stdout, "violation\n"), out.stdout)
	require.Contains(t, out.stdout, "group 1: ")
	require.Contains(t, out.stdout, "(two threads through their locks)")
	require.Contains(t, out.stdout, "note: 1 group dropped: no witness of theirs replays")
	mon := conc("monitor", wit, "--quiet")
	require.Equal(t, exitViolation, mon.code, mon.stdout+mon.stderr)
}
