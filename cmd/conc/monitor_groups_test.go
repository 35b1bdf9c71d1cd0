package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// groupsJSON is the part of monitor's JSON that the groups' invariants
// are about.
type groupsJSON struct {
	Violating  int `json:"violating"`
	Violations []struct {
		Thread string `json:"thread"`
		Begin  int    `json:"begin"`
		End    *int   `json:"end"`
	} `json:"violations"`
	Groups []groupJSON `json:"groups"`
}

// blocks counts the violating transactions that are atomic blocks: not
// unary, whose begin is their end.
func (g groupsJSON) blocks() int {
	n := 0
	for _, v := range g.Violations {
		if v.End == nil || *v.End != v.Begin {
			n++
		}
	}
	return n
}

// groupJSON is one of monitor's JSON groups.
type groupJSON struct {
	Signature string `json:"signature"`
	Count     int    `json:"count"`
	First     int    `json:"first"`
	Cycle     []struct {
		Thread string `json:"thread"`
		Begin  int    `json:"begin"`
		End    *int   `json:"end"`
		Events []struct {
			Line   int    `json:"line"`
			Op     string `json:"op"`
			Target string `json:"target"`
		} `json:"events"`
	} `json:"cycle"`
	Elided   int `json:"elided"`
	ElidedAt int `json:"elided_at"`
}

// TestMonitorGroupsInvariants: on random traces (trace.Gen, with and
// without lock edges), --cycles' groups' counts add up to violating (the number
// of violations listed), each group's first is a violating transaction's
// begin, and each example cycle is a cycle of conflicts as its listed lines
// show: every listed event is its transaction's (thread, within begin..end)
// with the op and target the trace has at that line, each transaction's
// last listed event (the first's first) comes before and conflicts with
// the next one's first (the first's last, for the last), by docs/spec.md
// §1's relation, computed here from the trace's own events.
func TestMonitorGroupsInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 15))
	dir := t.TempDir()
	violating := 0
	n := testflag.N(150, 3000)
	for i := range n {
		o := trace.GenOptions{Seed: uint64(i), Events: int64(5 + rng.IntN(40)), Threads: 2 + rng.IntN(3),
			Vars: 1 + rng.IntN(4), Locks: rng.IntN(3), TxnLen: 1 + rng.IntN(4), Unprotected: rng.Float64() * 0.6,
			Unary: rng.Float64() * 0.5, Nested: rng.Float64() * 0.3, Writes: 0.2 + rng.Float64()*0.6, Fork: rng.IntN(2) == 0}
		path := genTraceFile(t, dir, i, o)
		events := readEvents(t, path)
		for _, lockEdges := range []bool{false, true} {
			args := []string{"monitor", path, "--cycles", "--format", "json", "--max-cycle", "1000"}
			if lockEdges {
				args = append(args, "--lock-edges")
			}
			got := monitorGroups(t, args)
			ctx := fmt.Sprintf("%+v lock edges %v", o, lockEdges)
			checkGroups(t, got, events, lockEdges, ctx)
			checkNaive(t, got, newNaiveGraph(events, lockEdges), ctx)
			checkStreamed(t, args[:3], lockEdges, ctx)
			violating += got.Violating
		}
	}
	require.Greater(t, violating, n, "the traces should violate often")
}

// genTraceFile writes the i-th random trace of o into dir.
func genTraceFile(t *testing.T, dir string, i int, o trace.GenOptions) string {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("t%d.std", i))
	f, err := os.Create(path)
	require.NoError(t, err)
	_, err = trace.NewGen(o).WriteTo(f)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	return path
}

// checkStreamed: the text output groups the violations as the monitor
// streams them, holding none (groupSpool); --all holds them all, sorted
// (groupViolations). Both must print the same groups.
func checkStreamed(t *testing.T, args []string, lockEdges bool, ctx string) {
	t.Helper()
	args = append(args[:len(args):len(args)], "--quiet", "--max-cycle", "3")
	if lockEdges {
		args = append(args, "--lock-edges")
	}
	streamed := conc(args...)
	held := conc(append(args, "--all")...)
	want, _, _ := strings.Cut(held.stdout, "violating transactions:\n")
	require.Equal(t, want, streamed.stdout, ctx)
	require.Equal(t, held.code, streamed.code, ctx)
}

// readEvents are the trace's events by line, with names.
func readEvents(t *testing.T, path string) map[int]namedTraceEvent {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r, err := trace.NewReader(f, path, trace.Options{})
	require.NoError(t, err)
	evs := map[int]namedTraceEvent{}
	for {
		ev, err := r.Next()
		if err != nil {
			break
		}
		target := ""
		switch ev.Op {
		case model.OpRead, model.OpWrite:
			target = r.Vars().Name(ev.Target)
		case model.OpAcquire, model.OpRelease:
			target = r.Locks().Name(ev.Target)
		case model.OpFork, model.OpJoin:
			target = r.Threads().Name(ev.Target)
		}
		evs[int(ev.Line)] = namedTraceEvent{ev, r.Threads().Name(ev.Thread), target}
	}
	return evs
}

type namedTraceEvent struct {
	trace.Event
	thread, target string
}

func checkGroups(t *testing.T, got groupsJSON, events map[int]namedTraceEvent, lockEdges bool, ctx string) {
	t.Helper()
	require.Len(t, got.Violations, got.Violating, ctx)
	begins := map[int]bool{}
	for _, v := range got.Violations {
		begins[v.Begin] = true
	}
	sum := 0
	for _, g := range got.Groups {
		sum += g.Count
		require.True(t, begins[g.First], ctx)
		require.Zero(t, g.Elided, ctx)
		require.GreaterOrEqual(t, len(g.Cycle), 2, ctx)
		for _, x := range g.Cycle {
			for _, e := range x.Events {
				ev := events[e.Line]
				require.Equal(t, x.Thread, ev.thread, ctx)
				require.True(t, e.Line >= x.Begin && (x.End == nil || e.Line <= *x.End), ctx)
				require.Equal(t, trace.OpName[ev.Op], e.Op, ctx)
				if ev.Op != model.OpBegin && ev.Op != model.OpEnd {
					require.Equal(t, ev.target, e.Target, ctx)
				}
			}
		}
		requireCycleConflicts(t, g, events, lockEdges, -1, ctx)
	}
	require.Equal(t, got.Violating, sum, ctx)
}

// monitorGroups runs conc with args (a monitor command with --format json)
// and decodes its output.
func monitorGroups(t *testing.T, args []string) groupsJSON {
	t.Helper()
	out := conc(args...)
	var got groupsJSON
	require.NoError(t, json.Unmarshal([]byte(out.stdout), &got), out.stdout)
	return got
}

// requireCycleConflicts: each transaction of g's cycle comes before and
// conflicts with the next (its last listed event with the next one's
// first; the first transaction's first, and the last one's way back into
// it, its last), but the way into cycle[skip], which an elided cycle does
// not list (skip -1: none skipped).
func requireCycleConflicts(t *testing.T, g groupJSON, events map[int]namedTraceEvent, lockEdges bool, skip int, ctx string) {
	t.Helper()
	k := len(g.Cycle)
	for i := range k {
		j := (i + 1) % k
		if j == skip {
			continue
		}
		from := g.Cycle[i].Events[len(g.Cycle[i].Events)-1].Line
		if i == 0 {
			from = g.Cycle[0].Events[0].Line
		}
		next := g.Cycle[j].Events
		to := next[0].Line
		if j == 0 {
			to = next[len(next)-1].Line
		}
		a, b := events[from], events[to]
		require.True(t, from < to && specConflict(a.Event, b.Event, lockEdges), "lines %d and %d: no conflict\n%s\n%+v", from, to, ctx, g)
	}
}

// specConflict is docs/spec.md §1's conflict relation on two events.
func specConflict(a, b trace.Event, lockEdges bool) bool {
	switch {
	case a.Thread == b.Thread:
		return true
	case a.Op.IsAccess() && b.Op.IsAccess():
		return a.Target == b.Target && (a.Op == model.OpWrite || b.Op == model.OpWrite)
	case !lockEdges:
		return false
	case a.Op == model.OpRelease && b.Op == model.OpAcquire:
		return a.Target == b.Target
	}
	return (a.Op == model.OpFork || a.Op == model.OpJoin) && a.Target == b.Thread ||
		(b.Op == model.OpFork || b.Op == model.OpJoin) && b.Target == a.Thread
}
