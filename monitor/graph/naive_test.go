package graph

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/internal/montest"
)

// The reference below recomputes the whole conflict graph of a run from the
// definition (docs/spec.md §1), with no incrementality and no garbage collection.

// naiveTxns gives each event its transaction number, or -1.
func naiveTxns(run []model.Step, lockEdges bool) []int {
	txn := make([]int, len(run))
	open := map[int32]int{}
	nest := map[int32]int{}
	next := 0
	for i, s := range run {
		t, op := s.Thread, s.Ev.Op
		switch {
		case op == model.OpSkip, op.IsSync() && !lockEdges:
			txn[i] = -1
		case op == model.OpBegin:
			if nest[t]++; nest[t] == 1 {
				open[t] = next
				next++
			}
			txn[i] = open[t]
		case op == model.OpEnd && nest[t] == 0:
			txn[i] = -1
		case op == model.OpEnd:
			txn[i] = open[t]
			nest[t]--
		case nest[t] > 0:
			txn[i] = open[t]
		default:
			txn[i] = next
			next++
		}
	}
	return txn
}

// naiveConflict is the relation D (with lock edges) for events i < j.
func naiveConflict(run []model.Step, i, j int, lockEdges bool) bool {
	a, b := run[i], run[j]
	switch {
	case a.Thread == b.Thread:
		return true
	case a.Ev.Op.IsAccess() && b.Ev.Op.IsAccess():
		return a.Ev.Target == b.Ev.Target && (a.Ev.Op == model.OpWrite || b.Ev.Op == model.OpWrite)
	case !lockEdges:
		return false
	case a.Ev.Op == model.OpRelease && b.Ev.Op == model.OpAcquire:
		return a.Ev.Target == b.Ev.Target
	case a.Ev.Op == model.OpFork && a.Ev.Target == b.Thread:
		return true
	}
	return b.Ev.Op == model.OpJoin && b.Ev.Target == a.Thread
}

// naiveCyclic reports whether the conflict graph of run has a cycle.
func naiveCyclic(run []model.Step, lockEdges bool) bool {
	txn := naiveTxns(run, lockEdges)
	n := 0
	for _, x := range txn {
		n = max(n, x+1)
	}
	adj := make([][]bool, n)
	for i := range adj {
		adj[i] = make([]bool, n)
	}
	for j := range run {
		for i := 0; i < j; i++ {
			if txn[i] >= 0 && txn[j] >= 0 && txn[i] != txn[j] && naiveConflict(run, i, j, lockEdges) {
				adj[txn[i]][txn[j]] = true
			}
		}
	}
	return montest.HasCycle(adj)
}

// checkCycle asserts that cyc is a cycle of run's conflict graph as the
// package promises: real conflicting pairs, chained, closing.
func checkCycle(t testing.TB, run []model.Step, cyc []model.Conflict, lockEdges bool) {
	t.Helper()
	require.NotEmpty(t, cyc)
	txn := naiveTxns(run, lockEdges)
	for k, c := range cyc {
		require.True(t, 0 <= c.From && c.From < c.To && c.To < len(run), "pair %d: %v", k, c)
		require.True(t, txn[c.From] >= 0 && txn[c.To] >= 0 && txn[c.From] != txn[c.To], "pair %d: %v", k, c)
		require.True(t, naiveConflict(run, c.From, c.To, lockEdges), "pair %d: %v", k, c)
		next := cyc[(k+1)%len(cyc)]
		require.Equal(t, txn[c.To], txn[next.From], "pair %d does not chain", k)
	}
}

// randomRun interleaves random threads of transactions, unary accesses and
// (meaningless but well-formed) lock, fork and join events.
func randomRun(r *rand.Rand) []model.Step {
	k := 2 + r.Intn(3)
	var threads [][]model.Event
	for th := 0; th < k; th++ {
		var evs []model.Event
		for len(evs) < 3+r.Intn(8) {
			inTxn := r.Intn(3) > 0
			if inTxn {
				evs = append(evs, model.Event{Op: model.OpBegin, Target: -1})
			}
			for n := 1 + r.Intn(3); n > 0; n-- {
				evs = append(evs, randomEvent(r, k))
			}
			if inTxn {
				evs = append(evs, model.Event{Op: model.OpEnd, Target: -1})
			}
		}
		threads = append(threads, evs)
	}
	var run []model.Step
	pos := make([]int, k)
	for {
		var live []int
		for th := range threads {
			if pos[th] < len(threads[th]) {
				live = append(live, th)
			}
		}
		if len(live) == 0 {
			return run
		}
		th := live[r.Intn(len(live))]
		run = append(run, model.Step{Thread: int32(th), Ev: threads[th][pos[th]]})
		pos[th]++
	}
}

func randomEvent(r *rand.Rand, k int) model.Event {
	switch n := r.Intn(20); {
	case n < 8:
		return model.Event{Op: model.OpRead, Target: int32(r.Intn(3))}
	case n < 15:
		return model.Event{Op: model.OpWrite, Target: int32(r.Intn(3))}
	case n < 17:
		return model.Event{Op: model.OpAcquire + model.Op(r.Intn(2)), Target: int32(r.Intn(2))}
	default:
		return model.Event{Op: model.OpFork + model.Op(r.Intn(2)), Target: int32(r.Intn(k))}
	}
}

// TestAgainstNaive checks, on random runs, that the graph closes its first
// cycle exactly when the full conflict graph first becomes cyclic, and that
// the cycle it reports is real. 3,000 runs with CONC_LONG=1, 1,200 in the
// quick suite.
func TestAgainstNaive(t *testing.T) {
	size := testflag.N(1200, 3000)
	r := rand.New(rand.NewSource(1))
	cycles := 0
	for n := 0; n < size; n++ {
		run := randomRun(r)
		lockEdges := n%2 == 1
		g := New(lockEdges)
		for i, s := range run {
			cyc, err := g.Step(s)
			require.NoError(t, err)
			want := naiveCyclic(run[:i+1], lockEdges)
			require.Equal(t, want, cyc != nil, "run %d prefix %d lockEdges=%v: %s", n, i+1, lockEdges, fmtRun(run[:i+1]))
			if cyc != nil {
				checkCycle(t, run[:i+1], cyc, lockEdges)
				cycles++
				break
			}
		}
	}
	require.Greater(t, cycles, size/6, "the random runs should exercise cycles")
}

func fmtRun(run []model.Step) string {
	s := ""
	for _, st := range run {
		s += fmt.Sprintf("%d:%s", st.Thread, st.Ev.Op)
		if st.Ev.Op.HasTarget() {
			s += fmt.Sprintf(":%d", st.Ev.Target)
		}
		s += " "
	}
	return s
}

// TestKeyDeterminesFuture checks AppendKey's promise on random runs: prefixes
// with equal keys close their first cycle at the same step of any common
// continuation. Prefixes of 1,500 runs with CONC_LONG=1, 300 in the quick
// suite.
func TestKeyDeterminesFuture(t *testing.T) {
	size := testflag.N(300, 1500)
	r := rand.New(rand.NewSource(2))
	type prefix struct{ run []model.Step }
	buckets := map[string][]prefix{}
	for n := 0; n < size; n++ {
		lockEdges := n%2 == 1
		run := randomRun(r)
		g := New(lockEdges)
		for i, s := range run {
			if cyc, _ := g.Step(s); cyc != nil {
				break
			}
			key := string(g.AppendKey(nil))
			if len(buckets[key]) < 4 {
				buckets[key] = append(buckets[key], prefix{run[:i+1]})
			}
		}
	}
	compared := 0
	for key, ps := range buckets {
		lockEdges := key[0] == 1
		for _, q := range ps[1:] {
			for c := 0; c < 5; c++ {
				cont := randomRun(r)
				a := firstCycle(t, ps[0].run, cont, lockEdges)
				b := firstCycle(t, q.run, cont, lockEdges)
				require.Equal(t, a, b, "equal keys, different futures:\n%s\n%s\ncontinued by %s",
					fmtRun(ps[0].run), fmtRun(q.run), fmtRun(cont))
				compared++
			}
		}
	}
	require.Greater(t, compared, size*2/3)
}

// firstCycle feeds prefix then cont and returns the index in cont of the
// step that closed a cycle, or -1.
func firstCycle(t testing.TB, prefix, cont []model.Step, lockEdges bool) int {
	g := New(lockEdges)
	_, _ = feed(t, g, prefix)
	at, _ := feed(t, g, cont)
	return at
}
