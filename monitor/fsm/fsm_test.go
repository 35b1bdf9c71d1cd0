package fsm

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/graph"
	"github.com/conc-dev/conc/monitor/internal/montest"
	"github.com/stretchr/testify/require"
)

// fsmRun is a random run for the monitor tests, with its sizes.
type fsmRun struct {
	k, vars, locks int
	steps          []model.Step
}

func (r fsmRun) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "k=%d vars=%d locks=%d:", r.k, r.vars, r.locks)
	for _, s := range r.steps {
		fmt.Fprintf(&b, " T%d:%s", s.Thread, s.Ev.Op)
		if s.Ev.Op.HasTarget() {
			fmt.Fprintf(&b, "(%d)", s.Ev.Target)
		}
	}
	return b.String()
}

// randomFSMRun draws a run over 2-4 threads: transactions (sometimes nested),
// unary accesses, lock-valid acquires and releases, and (sometimes) forks
// and joins placed where docs/spec.md §1 allows them, or anywhere.
func randomFSMRun(r *rand.Rand) fsmRun {
	run := fsmRun{k: 2 + r.IntN(3), vars: 1 + r.IntN(3), locks: r.IntN(3)}
	n := 4 + r.IntN(26)
	depth := make([]int, run.k)
	owner := make([]int, run.locks)
	for l := range owner {
		owner[l] = -1
	}
	add := func(t int, op model.Op, target int32) {
		run.steps = append(run.steps, model.Step{Thread: int32(t), Ev: model.Event{Op: op, Target: target}})
	}
	for len(run.steps) < n {
		t := r.IntN(run.k)
		switch c := r.IntN(20); {
		case c < 3:
			add(t, model.OpBegin, -1)
			depth[t]++
		case c < 6 && depth[t] > 0:
			add(t, model.OpEnd, -1)
			depth[t]--
		case c < 8 && run.locks > 0:
			l := r.IntN(run.locks)
			if op, ok := montest.FlipLock(owner, l, t); ok {
				add(t, op, int32(l))
			}
		case c == 8:
			add(t, model.OpFork, int32(r.IntN(run.k)))
		case c == 9:
			add(t, model.OpJoin, int32(r.IntN(run.k)))
		case c == 10:
			add(t, model.OpEnd, -1) // stray or closing end
			if depth[t] > 0 {
				depth[t]--
			}
		case c < 15:
			add(t, model.OpRead, int32(r.IntN(run.vars)))
		default:
			add(t, model.OpWrite, int32(r.IntN(run.vars)))
		}
	}
	return run
}

// naiveGraph is the textbook conflict graph of a whole run, recomputed from
// the definitions of docs/spec.md §1 with no cleverness: transactions by nesting,
// conflicts pair by pair, reachability closed edge by edge.
type naiveGraph struct {
	lockEdges bool
	steps     []model.Step
	txn       []int // per event: its transaction, or -1
	nTxn      int
	cur       map[int32]int
	depth     map[int32]int
	reach     []uint64 // per transaction: the transactions it reaches (≤ 64)
}

func newNaiveGraph(lockEdges bool) *naiveGraph {
	return &naiveGraph{lockEdges: lockEdges, cur: map[int32]int{}, depth: map[int32]int{}}
}

// txnOf places event s in a transaction (docs/spec.md §1, nested blocks flattened).
func (g *naiveGraph) txnOf(s model.Step) int {
	t, op := s.Thread, s.Ev.Op
	open := func() int { g.nTxn++; g.reach = append(g.reach, 0); return g.nTxn - 1 }
	switch {
	case op == model.OpSkip, op.IsSync() && !g.lockEdges:
		return -1
	case op == model.OpBegin:
		g.depth[t]++
		if g.depth[t] == 1 {
			g.cur[t] = open()
		}
		return g.cur[t]
	case op == model.OpEnd:
		if g.depth[t] == 0 {
			return -1
		}
		g.depth[t]--
		return g.cur[t]
	case g.depth[t] > 0:
		return g.cur[t]
	default:
		return open() // unary
	}
}

// conflict reports whether earlier event a and later event b conflict.
func (g *naiveGraph) conflict(a, b model.Step) bool {
	ea, eb := a.Ev, b.Ev
	switch {
	case a.Thread == b.Thread:
		return true
	case ea.Op.IsAccess() && eb.Op.IsAccess() && ea.Target == eb.Target:
		return ea.Op == model.OpWrite || eb.Op == model.OpWrite
	case !g.lockEdges:
		return false
	case ea.Op == model.OpRelease && eb.Op == model.OpAcquire:
		return ea.Target == eb.Target
	case ea.Op == model.OpFork && ea.Target == b.Thread:
		return true
	case eb.Op == model.OpJoin && eb.Target == a.Thread:
		return true
	}
	return false
}

// add appends s and reports whether the conflict graph now has a cycle.
func (g *naiveGraph) add(s model.Step) bool {
	w := g.txnOf(s)
	g.steps = append(g.steps, s)
	g.txn = append(g.txn, w)
	if w >= 0 {
		for i := range len(g.steps) - 1 {
			if u := g.txn[i]; u >= 0 && u != w && g.conflict(g.steps[i], s) {
				g.edge(u, w)
			}
		}
	}
	for x, r := range g.reach {
		if r&(1<<x) != 0 {
			return true
		}
	}
	return false
}

// edge adds u -> w and closes reachability.
func (g *naiveGraph) edge(u, w int) {
	add := uint64(1)<<w | g.reach[w]
	for x := range g.reach {
		if x == u || g.reach[x]&(1<<u) != 0 {
			g.reach[x] |= add
		}
	}
}

func newRunFSM(run fsmRun, lockEdges bool) *FSM {
	return New(NewAlphabet(AlphabetConfig{Threads: run.k, Vars: run.vars, Locks: run.locks, LockEdges: lockEdges}))
}

// TestFSMAgreesWithConflictGraph is the monitor's correctness claim: on every
// prefix of 100,000 random runs (15,000 in the quick suite; nested and unary
// transactions, locks, forks and joins, with and without lock edges) the
// monitor is violated exactly when the naive conflict graph, and the exact
// Graph, have a cycle.
func TestFSMAgreesWithConflictGraph(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 2009))
	for i := range testflag.N(15_000, 100_000) {
		run := randomFSMRun(r)
		lockEdges := i%2 == 1
		m, ng, g := newRunFSM(run, lockEdges), newNaiveGraph(lockEdges), graph.New(lockEdges)
		for j, s := range run.steps {
			got, err := m.Event(int(s.Thread), s.Ev)
			require.NoError(t, err)
			want := ng.add(s)
			_, err = g.Step(s)
			require.NoError(t, err)
			require.Equal(t, want, got, "run %d (lock edges %v), prefix %d: %v", i, lockEdges, j+1, run)
			require.Equal(t, g.Cyclic(), got, "exact Graph disagrees: run %d prefix %d: %v", i, j+1, run)
		}
	}
}

// TestFSMStateIsTraceInvariant checks what partial-order reduction relies
// on: swapping two adjacent events of different threads that do not conflict
// leaves the monitor's state (its key) unchanged.
func TestFSMStateIsTraceInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2008))
	for i := range 20_000 {
		run := randomFSMRun(r)
		lockEdges := i%2 == 0
		ng := newNaiveGraph(lockEdges)
		perm := append([]model.Step(nil), run.steps...)
		for range 3 * len(perm) {
			j := r.IntN(len(perm) - 1)
			a, b := perm[j], perm[j+1]
			if a.Thread != b.Thread && !ng.conflict(a, b) && !ng.conflict(b, a) {
				perm[j], perm[j+1] = b, a
			}
		}
		k1 := stateKey(t, newRunFSM(run, lockEdges), run.steps)
		k2 := stateKey(t, newRunFSM(run, lockEdges), perm)
		require.Equal(t, k1, k2, "run %d: %v\nequivalent run %v", i, run, fsmRun{run.k, run.vars, run.locks, perm})
	}
}

func stateKey(t *testing.T, m *FSM, steps []model.Step) string {
	for _, s := range steps {
		_, err := m.Event(int(s.Thread), s.Ev)
		require.NoError(t, err)
	}
	return string(m.AppendKey(nil))
}

// TestFSMFigure1 is the paper's Figure 1 shape: T1 reads x, T2 writes x and
// y, then T1 (same transaction) reads y: T1 -> T2 -> T1.
func TestFSMFigure1(t *testing.T) {
	m := New(NewAlphabet(AlphabetConfig{Threads: 2, Vars: 2}))
	steps := []struct {
		t    int
		ev   model.Event
		want bool
	}{
		{0, model.Event{Op: model.OpBegin, Target: -1}, false},
		{0, model.Event{Op: model.OpRead, Target: 0}, false},
		{1, model.Event{Op: model.OpBegin, Target: -1}, false},
		{1, model.Event{Op: model.OpWrite, Target: 0}, false},
		{1, model.Event{Op: model.OpWrite, Target: 1}, false},
		{1, model.Event{Op: model.OpEnd, Target: -1}, false},
		{0, model.Event{Op: model.OpRead, Target: 1}, true},
		{0, model.Event{Op: model.OpEnd, Target: -1}, true},
	}
	for i, s := range steps {
		got, err := m.Event(s.t, s.ev)
		require.NoError(t, err)
		require.Equal(t, s.want, got, "step %d", i)
	}
}

// TestFSMCompletedTransactionsStillCount: the cycle runs through a completed
// transaction of a third thread that no current transaction is, only one
// reachable (its letters live in D).
func TestFSMCompletedTransactionsStillCount(t *testing.T) {
	m := New(NewAlphabet(AlphabetConfig{Threads: 3, Vars: 3}))
	ev := func(op model.Op, x int32) model.Event { return model.Event{Op: op, Target: x} }
	b, e := ev(model.OpBegin, -1), ev(model.OpEnd, -1)
	run := []model.Step{
		{Thread: 0, Ev: b}, {Thread: 0, Ev: ev(model.OpWrite, 0)}, // T0: w(x) ...
		{Thread: 1, Ev: b}, {Thread: 1, Ev: ev(model.OpRead, 0)}, {Thread: 1, Ev: ev(model.OpWrite, 1)}, {Thread: 1, Ev: e},
		{Thread: 1, Ev: b}, {Thread: 1, Ev: e}, // T1's first transaction retires into D[T0]
		{Thread: 2, Ev: b}, {Thread: 2, Ev: ev(model.OpRead, 1)}, {Thread: 2, Ev: ev(model.OpWrite, 2)}, {Thread: 2, Ev: e},
		{Thread: 2, Ev: b}, {Thread: 2, Ev: e},
	}
	for _, s := range run {
		got, err := m.Event(int(s.Thread), s.Ev)
		require.NoError(t, err)
		require.False(t, got)
	}
	got, err := m.Event(0, ev(model.OpRead, 2)) // T0 reads z written by T2's completed transaction
	require.NoError(t, err)
	require.True(t, got)
}

// TestFSMUntrackedVariables: a variable only one thread touches needs no
// letter, and leaving it out changes no verdict.
func TestFSMUntrackedVariables(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 5_000 {
		run := randomFSMRun(r)
		shared := make([]bool, run.vars)
		users := make([]map[int32]bool, run.vars)
		for _, s := range run.steps {
			if s.Ev.Op.IsAccess() {
				if users[s.Ev.Target] == nil {
					users[s.Ev.Target] = map[int32]bool{}
				}
				users[s.Ev.Target][s.Thread] = true
			}
		}
		for x := range shared {
			shared[x] = len(users[x]) > 1
		}
		full := newRunFSM(run, false)
		small := New(NewAlphabet(AlphabetConfig{Threads: run.k, Vars: run.vars, Locks: run.locks, SharedVars: shared}))
		for _, s := range run.steps {
			a, err := full.Event(int(s.Thread), s.Ev)
			require.NoError(t, err)
			b, err := small.Event(int(s.Thread), s.Ev)
			require.NoError(t, err)
			require.Equal(t, a, b, "%v", run)
		}
	}
}

func TestFSMBadEvents(t *testing.T) {
	m := New(NewAlphabet(AlphabetConfig{Threads: 2, Vars: 1, Locks: 1}))
	_, err := m.Event(2, model.Event{Op: model.OpBegin, Target: -1})
	require.Error(t, err)
	_, err = m.Event(0, model.Event{Op: model.OpRead, Target: 3})
	require.Error(t, err)
	_, err = m.Event(0, model.Event{Op: model.OpJoin, Target: -1})
	require.Error(t, err)
	require.False(t, m.Violated())
}

// TestFSMManyLetters exercises letter sets of several words.
func TestFSMManyLetters(t *testing.T) {
	m := New(NewAlphabet(AlphabetConfig{Threads: 70, Vars: 100, LockEdges: true}))
	require.Greater(t, m.Alphabet().words, 2)
	ev := func(op model.Op, x int32) model.Event { return model.Event{Op: op, Target: x} }
	for _, s := range []struct {
		t  int
		ev model.Event
	}{{69, ev(model.OpBegin, -1)}, {69, ev(model.OpRead, 99)}, {3, ev(model.OpWrite, 99)}, {3, ev(model.OpWrite, 98)}} {
		got, err := m.Event(s.t, s.ev)
		require.NoError(t, err)
		require.False(t, got)
	}
	got, err := m.Event(69, ev(model.OpRead, 98))
	require.NoError(t, err)
	require.True(t, got)
}

// TestFSMForgetReachKeepsVerdicts checks the rule engines use with
// ForgetReach: after every step, forget the reach of each thread whose
// current transaction makes no further access (nor, with lock edges, lock,
// fork or join event) before its end; the verdict on every prefix stays the
// naive graph's. Runs where a thread is forked after it started (which no
// program produces) keep their reach. 50,000 runs with CONC_LONG=1, 10,000
// in the quick suite.
func TestFSMForgetReachKeepsVerdicts(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	for i := range testflag.N(10_000, 50_000) {
		run := randomFSMRun(r)
		lockEdges := i%2 == 1
		live := fsmLiveAfter(run, lockEdges)
		m, ng := newRunFSM(run, lockEdges), newNaiveGraph(lockEdges)
		for j, s := range run.steps {
			got, err := m.Event(int(s.Thread), s.Ev)
			require.NoError(t, err)
			for th := range run.k {
				if !live[j][th] {
					m.ForgetReach(th)
				}
			}
			require.Equal(t, ng.add(s), got, "run %d prefix %d: %v", i, j+1, run)
		}
	}
}

// fsmLiveAfter reports, after each step j and for each thread, whether the
// thread's current transaction may still make an event that matters (an
// access, or with lock edges a lock, fork or join event) before its end;
// threads forked after their first event are always live.
func fsmLiveAfter(run fsmRun, lockEdges bool) [][]bool {
	late := make([]bool, run.k)
	moved := make([]bool, run.k)
	for _, s := range run.steps {
		moved[s.Thread] = true
		if s.Ev.Op == model.OpFork && moved[s.Ev.Target] {
			late[s.Ev.Target] = true
		}
	}
	n := len(run.steps)
	live := make([][]bool, n)
	// Scan backwards: matters[t] is whether t's events from here on, up to
	// the end of the transaction they are in, include one that matters.
	matters := make([]bool, run.k)
	depth := make([]int, run.k) // nesting depth before each step, computed forwards
	before := make([][]int, n)
	for j, s := range run.steps {
		before[j] = append([]int(nil), depth...)
		switch t := s.Thread; s.Ev.Op {
		case model.OpBegin:
			depth[t]++
		case model.OpEnd:
			if depth[t] > 0 {
				depth[t]--
			}
		}
	}
	for j := n - 1; j >= 0; j-- {
		live[j] = make([]bool, run.k)
		for th := range run.k {
			live[j][th] = matters[th] || late[th]
		}
		s := run.steps[j]
		t := s.Thread
		switch op := s.Ev.Op; {
		case op == model.OpBegin && before[j][t] == 0, op == model.OpEnd && before[j][t] == 1:
			matters[t] = false // the transaction ends (or starts) here
		case op.IsAccess() || op.IsSync() && lockEdges:
			matters[t] = before[j][t] > 0 // inside a transaction (a unary one is over at once)
		}
	}
	return live
}
