package verify

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// figure1 is the paper's Figure 1: T1 reads x and writes z in one
// transaction, T2 writes x and reads z in between.
func figure1(t *testing.T) (*model.Program, *model.Witness) {
	p := straight(t, "b r:x w:z e", "b w:x r:z e")
	w := schedule(p, []int{1, 1, 2, 2, 2, 2, 1, 1}, []model.Conflict{{From: 1, To: 3}, {From: 4, To: 6}}, false)
	return p, w
}

func TestValidWitnesses(t *testing.T) {
	p, w := figure1(t)
	require.NoError(t, Witness(p, w))

	// A unary transaction between two reads, written as begin; access; end.
	p = straight(t, "b r:x r:x e", "b w:x e")
	w = schedule(p, []int{1, 1, 2, 2, 2, 1}, []model.Conflict{{From: 1, To: 3}, {From: 3, To: 5}}, false)
	require.NoError(t, Witness(p, w))

	// Lock edges: release -> acquire both ways around T2's critical section,
	// whose acquire and release are unary transactions (begin, event, end).
	p = straight(t, "b acq:l rel:l acq:l rel:l e", "acq:l rel:l")
	order := []int{1, 1, 1, 2, 2, 1, 1, 1}
	w = schedule(p, order, []model.Conflict{{From: 2, To: 4}, {From: 4, To: 7}, {From: 7, To: 9}}, true)
	require.NoError(t, Witness(p, w))
	w = schedule(p, order, []model.Conflict{{From: 2, To: 3}, {From: 3, To: 4}, {From: 4, To: 5}}, false)
	require.ErrorContains(t, Witness(p, w), "belongs to no transaction", "the same cycle without lock edges")

	// Fork and join with lock edges.
	p = straight(t, "b fork:T2 join:T2 e", "b w:x e")
	w = schedule(p, []int{1, 1, 2, 2, 2, 1, 1}, []model.Conflict{{From: 1, To: 2}, {From: 4, To: 5}}, true)
	require.NoError(t, Witness(p, w))
}

func TestValidPushdownWitness(t *testing.T) {
	// T1 calls (push d), reads x, returns (pop d), reads x, in one transaction.
	read := func(to int32) model.Edge {
		return model.Edge{To: to, Ev: model.Event{Op: model.OpRead, Target: 0}}
	}
	a := &model.Automaton{Out: [][]model.Edge{
		{{To: 1, Ev: model.Event{Op: model.OpBegin, Target: -1}}},
		{{To: 2, Ev: model.Event{Op: model.OpSkip, Target: -1}, Stack: model.StackPush, Sym: 0}},
		{read(3)},
		{{To: 4, Ev: model.Event{Op: model.OpSkip, Target: -1}, Stack: model.StackPop, Sym: 0}},
		{read(5)},
		{{To: 6, Ev: model.Event{Op: model.OpEnd, Target: -1}}},
		nil,
	}}
	p := straight(t, "b r:x e", "b w:x e")
	p.Threads[0].Auto = a
	w := &model.Witness{
		Run: []model.Step{
			{Thread: 0, Ev: model.Event{Op: model.OpBegin, Target: -1}},
			{Thread: 0, Ev: model.Event{Op: model.OpRead, Target: 0}},
			{Thread: 1, Ev: model.Event{Op: model.OpBegin, Target: -1}},
			{Thread: 1, Ev: model.Event{Op: model.OpWrite, Target: 0}},
			{Thread: 1, Ev: model.Event{Op: model.OpEnd, Target: -1}},
			{Thread: 0, Ev: model.Event{Op: model.OpRead, Target: 0}},
		},
		Paths: [][]model.Move{
			{{From: 0}, {From: 1}, {From: 2}, {From: 3}, {From: 4}},
			{{From: 0}, {From: 1}, {From: 2}},
		},
		Cycle: []model.Conflict{{From: 1, To: 3}, {From: 3, To: 5}},
	}
	require.NoError(t, Witness(p, w))

	a.Out[3][0].Sym = 1
	require.ErrorContains(t, Witness(p, w), "thread T1 move 3: pops 1, but 0 is on top of the stack")
	a.Out[3][0].Sym = 0
	w.Paths[0] = []model.Move{{From: 0}, {From: 1}, {From: 2}, {From: 3}, {From: 4}, {From: 5}}
	w.Run = append(w.Run, model.Step{Thread: 0, Ev: model.Event{Op: model.OpEnd, Target: -1}})
	require.NoError(t, Witness(p, w), "the finished thread")
}

// TestCorruptions corrupts the Figure 1 witness (or program) one way at a
// time and checks that the checker says what is wrong.
func TestCorruptions(t *testing.T) {
	cases := []struct {
		name    string
		corrupt func(p *model.Program, w *model.Witness)
		want    string
	}{
		{"missing path", func(p *model.Program, w *model.Witness) { w.Paths = w.Paths[:1] },
			"witness has 1 paths for 2 threads"},
		{"bad thread", func(p *model.Program, w *model.Witness) { w.Run[0].Thread = 5 },
			"run event 0: no thread 5"},
		{"skip event", func(p *model.Program, w *model.Witness) { w.Run[0].Ev.Op = model.OpSkip },
			"run event 0: skip is not an event"},
		{"bad target", func(p *model.Program, w *model.Witness) { w.Run[1].Ev.Target = 9 },
			"run event 1: read target 9 out of range"},
		{"move from wrong state", func(p *model.Program, w *model.Witness) { w.Paths[0][1].From = 3 },
			"thread T1 move 1: starts at state 3, but the thread is in state 1"},
		{"no such edge", func(p *model.Program, w *model.Witness) { w.Paths[1][0].Edge = 1 },
			"thread T2 move 0: state 0 has no edge 1"},
		{"wrong event", func(p *model.Program, w *model.Witness) { w.Run[6].Ev.Op = model.OpRead },
			"thread T1 move 2 emits write z, but the thread's next run event is event 6 (T1 read z)"},
		{"path too long", func(p *model.Program, w *model.Witness) {
			w.Run = w.Run[:7]
			w.Cycle = []model.Conflict{{From: 1, To: 3}, {From: 4, To: 6}}
		}, "thread T1 move 3 emits end, but the run has only 3 events of T1"},
		{"path too short", func(p *model.Program, w *model.Witness) { w.Paths[1] = w.Paths[1][:3] },
			"thread T2's path emits 3 events, but the run has 4 (first unmatched: event 5 (T2 end))"},
		{"empty cycle", func(p *model.Program, w *model.Witness) { w.Cycle = nil },
			"the witness has no cycle"},
		{"index out of run", func(p *model.Program, w *model.Witness) { w.Cycle[1].To = 8 },
			"cycle pair 1 (4 -> 8): index out of the run (length 8)"},
		{"backwards pair", func(p *model.Program, w *model.Witness) { w.Cycle[0] = model.Conflict{From: 3, To: 1} },
			"cycle pair 0 (3 -> 1): event 3 (T2 write x) does not come before event 1 (T1 read x)"},
		{"no conflict", func(p *model.Program, w *model.Witness) { w.Cycle[0].To = 4 },
			"cycle pair 0 (1 -> 4): event 1 (T1 read x) and event 4 (T2 read z) do not conflict"},
		{"same transaction", func(p *model.Program, w *model.Witness) { w.Cycle[0].To = 6 },
			"cycle pair 0 (1 -> 6): event 1 (T1 read x) and event 6 (T1 write z) are in the same transaction"},
		{"not closing", func(p *model.Program, w *model.Witness) { w.Cycle = w.Cycle[:1] },
			"the cycle does not close: event 3 (T2 write x) and event 1 (T1 read x) are in different transactions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, w := figure1(t)
			c.corrupt(p, w)
			require.EqualError(t, Witness(p, w), c.want)
		})
	}
	require.Error(t, Witness(nil, nil))
}

func TestChainBroken(t *testing.T) {
	// Three transactions; the middle pair starts in the wrong one.
	p := straight(t, "b r:x w:z e", "b w:x e", "b r:z w:z e")
	w := schedule(p, []int{1, 1, 2, 2, 2, 3, 3, 1, 3, 1},
		[]model.Conflict{{From: 1, To: 3}, {From: 6, To: 7}}, false)
	require.EqualError(t, Witness(p, w),
		"cycle pairs 0 and 1 do not chain: event 3 (T2 write x) and event 6 (T3 read z) are in different transactions")
}

func TestLockAndForkCorruptions(t *testing.T) {
	p := straight(t, "acq:l b r:x e rel:l", "acq:l b w:x e rel:l")
	w := schedule(p, []int{1, 2}, []model.Conflict{{From: 0, To: 1}}, false)
	require.EqualError(t, Witness(p, w), "event 1 (T2 acquire l) acquires a lock held by T1")
	p = straight(t, "acq:l rel:l", "rel:l")
	w = schedule(p, []int{1, 1, 2}, nil, false)
	require.EqualError(t, Witness(p, w), "event 2 (T2 release l) releases a lock its thread does not hold")
	p = straight(t, "acq:l acq:l")
	w = schedule(p, []int{1, 1}, nil, false)
	require.EqualError(t, Witness(p, w), "event 1 (T1 acquire l) acquires a lock its thread already holds")

	p = straight(t, "b r:x fork:T2 e", "b w:x e")
	w = schedule(p, []int{1, 1, 2, 2, 2, 1, 1}, nil, false)
	require.EqualError(t, Witness(p, w), "event 2 (T2 begin) comes before T2 is forked")
	p = straight(t, "fork:T2 fork:T2", "b e")
	w = schedule(p, []int{1, 1}, nil, false)
	require.EqualError(t, Witness(p, w), "event 1 (T1 fork T2) forks a thread that was already forked")

	p = straight(t, "b join:T2 r:x e", "b w:x e")
	w = schedule(p, []int{1, 2, 1, 2, 2, 1, 1}, nil, false)
	require.EqualError(t, Witness(p, w), "event 3 (T2 write x) comes after event 2 (T1 join T2) joined its thread")
	w = schedule(p, []int{1, 2, 2, 1, 1, 2, 1}, nil, false)
	w.Paths[1] = w.Paths[1][:2]
	w.Run = append(w.Run[:5], w.Run[6])
	require.EqualError(t, Witness(p, w),
		"event 3 (T1 join T2) joins T2, whose path does not end finished (state 2, empty stack true)")
	p = straight(t, "join:T1")
	w = schedule(p, []int{1}, nil, false)
	require.EqualError(t, Witness(p, w), "event 0 (T1 join T1) joins its own thread")
}
