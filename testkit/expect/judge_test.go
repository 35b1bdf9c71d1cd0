package expect

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

func ev(op model.Op, target int32) model.Event { return model.Event{Op: op, Target: target} }

var (
	begin = ev(model.OpBegin, -1)
	end   = ev(model.OpEnd, -1)
)

// line builds a straight-line thread making evs; loop adds an edge from its
// last state back to the first, which makes it regular.
func line(loop bool, evs ...model.Event) *model.Automaton {
	a := &model.Automaton{}
	in := false
	for i, e := range evs {
		a.Out = append(a.Out, []model.Edge{{To: int32(i + 1), Ev: e}})
		a.InTxn = append(a.InTxn, in)
		in = in && e.Op != model.OpEnd || e.Op == model.OpBegin
	}
	a.Out = append(a.Out, nil)
	a.InTxn = append(a.InTxn, in)
	a.Held = make([][]int32, len(a.Out))
	if loop {
		a.Out[len(evs)] = []model.Edge{{To: 0, Ev: ev(model.OpSkip, -1)}}
	}
	return a
}

// fig1 is Figure 1's program: T1 reads x and writes z, T2 writes x and
// reads z, one transaction each.
func fig1(loop bool) *model.Program {
	return &model.Program{
		Vars: []string{"x", "z"},
		Threads: []*model.Thread{
			{Name: "T1", Auto: line(loop, begin, ev(model.OpRead, 0), ev(model.OpWrite, 1), end)},
			{Name: "T2", Auto: line(loop, begin, ev(model.OpWrite, 0), ev(model.OpRead, 1), end)},
		},
	}
}

// fig1Witness is the run T1:begin read x, T2:begin write x read z end,
// T1:write z end, with the cycle T1 -> T2 (x) -> T1 (z).
func fig1Witness() *model.Witness {
	steps := []struct{ t, e int32 }{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {1, 3}, {0, 2}, {0, 3}}
	p := fig1(false)
	w := &model.Witness{Paths: make([][]model.Move, 2)}
	for _, s := range steps {
		w.Run = append(w.Run, model.Step{Thread: s.t, Ev: p.Threads[s.t].Auto.Out[s.e][0].Ev})
		w.Paths[s.t] = append(w.Paths[s.t], model.Move{From: s.e, Edge: 0})
	}
	w.Cycle = []model.Conflict{{From: 1, To: 3}, {From: 4, To: 6}}
	return w
}

func TestJudgeVerdicts(t *testing.T) {
	p := fig1(false)
	ser := Want{Verdict: engines.Serializable}
	vio := Want{Verdict: engines.Violation}
	require.NoError(t, Judge(p, "brute", ser, engines.Result{Verdict: engines.Serializable}))
	require.ErrorContains(t, Judge(p, "brute", vio, engines.Result{Verdict: engines.Serializable}),
		"want violation, got serializable")
	require.NoError(t, Judge(p, "brute", vio, engines.Result{Verdict: engines.Violation, Witness: fig1Witness()}))
	require.ErrorContains(t, Judge(p, "brute", vio, engines.Result{Verdict: engines.Violation}), "without a witness")

	bad := fig1Witness()
	bad.Cycle = bad.Cycle[:1]
	require.ErrorContains(t, Judge(p, "brute", vio, engines.Result{Verdict: engines.Violation, Witness: bad}), "bad witness")
	edges := Want{Verdict: engines.Violation, Options: engines.Options{LockEdges: true}}
	require.ErrorContains(t, Judge(p, "brute", edges, engines.Result{Verdict: engines.Violation, Witness: fig1Witness()}),
		"LockEdges=false")
}

func TestJudgeUnknown(t *testing.T) {
	ser := Want{Verdict: engines.Serializable}
	unknown := func(reason string) engines.Result { return engines.Result{Verdict: engines.Unknown, Reason: reason} }
	straight, regular := fig1(false), fig1(true)

	// brute may stop at its bound on unbounded runs, and must say so.
	require.NoError(t, Judge(regular, "brute", ser, unknown("max depth 8 reached")))
	require.ErrorContains(t, Judge(regular, "brute", ser, unknown("gave up")), "names no bound")
	// never on straight-line programs, nor instead of a violation.
	require.ErrorContains(t, Judge(straight, "brute", ser, unknown("max depth 8 reached")), "got unknown")
	// unless the want line bounds the depth itself.
	bounded := Want{Verdict: engines.Serializable, Options: engines.Options{MaxDepth: 3}}
	require.NoError(t, Judge(straight, "brute", bounded, unknown("no violation within --max-depth 3 events per thread")))
	require.ErrorContains(t, Judge(straight, "global", bounded, unknown("--max-depth 3")), "got unknown")
	require.ErrorContains(t, Judge(regular, "brute", Want{Verdict: engines.Violation}, unknown("max depth")),
		"want violation, got unknown")
	// decision procedures only on recursive threads with locks.
	require.ErrorContains(t, Judge(regular, "global", ser, unknown("max depth")), "got unknown")

	rec := fig1(false)
	rec.Locks = []string{"m"}
	a := line(false, begin, ev(model.OpAcquire, 0), ev(model.OpRelease, 0), end)
	a.Out[3][0].Stack, a.Out[3][0].Sym = model.StackPush, 0
	a.Symbols = []string{"ret"}
	rec.Threads = append(rec.Threads, &model.Thread{Name: "R", Auto: a})
	ok, why := UnknownAllowed(rec, "global", engines.Options{})
	require.True(t, ok)
	require.Contains(t, why, "undecidable")
	require.NoError(t, Judge(rec, "global", ser, unknown("recursive threads with locks: undecidable; bounded search to stack 4 found nothing")))
	ok, _ = UnknownAllowed(rec, "profile", engines.Options{IgnoreSync: true})
	require.False(t, ok, "without its locks the program is decidable")
	ok, _ = UnknownAllowed(straight, "profile", engines.Options{MaxStates: 10})
	require.True(t, ok, "a state limit may stop any engine")
}

func TestDecides(t *testing.T) {
	straight, regular := fig1(false), fig1(true)
	recursive := fig1(false)
	a := line(false, begin, end)
	a.Out[1][0].Stack = model.StackPush
	recursive.Threads = append(recursive.Threads, &model.Thread{Name: "R", Auto: a})
	locked := fig1(false)
	locked.Locks = []string{"m"}
	locked.Threads = append(locked.Threads, recursive.Threads[2],
		&model.Thread{Name: "L", Auto: line(false, ev(model.OpAcquire, 0), ev(model.OpRelease, 0))})
	// A branch that does not loop leaves the program loop-free.
	branching := fig1(false)
	branching.Threads[0].Auto.Out[0] = append(branching.Threads[0].Auto.Out[0], model.Edge{To: 4, Ev: ev(model.OpSkip, -1)})
	for _, c := range []struct {
		p       *model.Program
		engine  string
		decides bool
	}{
		{straight, "brute", true}, {branching, "brute", true}, {regular, "brute", false}, {recursive, "brute", false},
		{regular, "global", true}, {recursive, "global", false},
		{recursive, "profile", true},
		{recursive, "future", true}, {locked, "future", false},
	} {
		require.Equal(t, c.decides, Decides(c.p, c.engine), "%s on %s", c.engine, c.p.Class())
	}
}
