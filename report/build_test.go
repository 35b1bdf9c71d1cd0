package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/verify"
)

func TestBuildResolvesWitness(t *testing.T) {
	p, res := bank()
	r, err := Build(p, res)
	require.NoError(t, err)
	require.Equal(t, "violation", r.Verdict)
	require.Equal(t, 2, r.Threads)
	w := r.Witness
	require.Len(t, w.Run, 7)
	require.Equal(t, Event{Thread: "A", Op: "read", Target: "balance", Pos: "test.conc:7:10", Txn: 0, OnCycle: true}, w.Run[1])
	require.Equal(t, []Txn{
		{ID: 0, Thread: "A", Nth: 1, Events: []int{0, 1, 5, 6}, Begin: 6, End: 9},
		{ID: 1, Thread: "B", Nth: 1, Events: []int{2, 3, 4}, Begin: 6, End: 9},
	}, w.Txns)
	require.Equal(t, "A's read of balance at test.conc:7:10 comes before B's write of balance at test.conc:8:11", w.Cycle[0].Words)
}

// TestWitnessesAreReal checks the golden cases against the witness checker:
// the goldens show runs that really are witnesses.
func TestWitnessesAreReal(t *testing.T) {
	p, res := bank()
	require.NoError(t, verify.Witness(p, res.Witness))
	for _, cycle := range [][]model.Conflict{
		{{From: 1, To: 3}, {From: 5, To: 10}},
		{{From: 1, To: 3}, {From: 6, To: 7}, {From: 8, To: 11}},
	} {
		p, res := locked(cycle...)
		require.NoError(t, verify.Witness(p, res.Witness), "%v", cycle)
	}
}

func TestBuildRejectsBadWitness(t *testing.T) {
	bad := []model.Witness{
		{Run: []model.Step{{Thread: 5, Ev: ev(model.OpBegin, -1, 1, 1)}}},
		{Run: []model.Step{{Thread: 0, Ev: ev(model.OpRead, 9, 1, 1)}}},
		{Run: []model.Step{{Thread: 0, Ev: ev(model.OpFork, 7, 1, 1)}}},
		{Run: []model.Step{{Thread: 0, Ev: ev(model.OpBegin, -1, 1, 1)}}, Cycle: []model.Conflict{{From: 0, To: 3}}},
		{Run: []model.Step{{Thread: 0, Ev: ev(model.OpBegin, -1, 1, 1)}}, Cycle: []model.Conflict{{From: 0, To: 0}}},
	}
	p, _ := bank()
	for i := range bad {
		_, err := Build(p, engines.Result{Verdict: engines.Violation, Witness: &bad[i]})
		require.Error(t, err, "witness %d", i)
	}
}

// TestTransactions checks docs/spec.md §1's transactions: unary accesses, and lock
// events outside transactions counting only with lock edges.
func TestTransactions(t *testing.T) {
	run := runOf(
		tA, ev(model.OpAcquire, 0, 1, 1),
		tA, ev(model.OpRead, 0, 2, 1), // unary
		tB, ev(model.OpBegin, -1, 3, 1),
		tA, ev(model.OpRelease, 0, 4, 1),
		tB, ev(model.OpWrite, 0, 5, 1),
		tA, ev(model.OpBegin, -1, 6, 1),
		tB, ev(model.OpEnd, -1, 7, 1),
		tA, ev(model.OpWrite, 0, 8, 1), // A's open transaction, never ended
	)
	txn, nth := transactions(run, false)
	require.Equal(t, []int{-1, 0, 1, -1, 1, 2, 1, 2}, txn)
	require.Equal(t, []int{1, 1, 2}, nth)
	txn, nth = transactions(run, true)
	require.Equal(t, []int{0, 1, 2, 3, 2, 4, 2, 4}, txn)
	require.Equal(t, []int{1, 2, 1, 3, 4}, nth)
}

func TestForkJoinWords(t *testing.T) {
	p := &model.Program{Vars: []string{"x"}, Threads: []*model.Thread{
		{Name: "Main", Auto: straight()}, {Name: "U", Auto: straight()}}}
	run := runOf(
		tA, ev(model.OpFork, tB, 1, 1),
		tB, ev(model.OpWrite, 0, 2, 1),
		tA, ev(model.OpJoin, tB, 3, 1),
	)
	fork := explain(Naming{}, p, run, model.Conflict{From: 0, To: 1})
	require.Equal(t, "Main's fork of U at test.conc:1:1 comes before U's write of x at test.conc:2:1 (U runs only after its fork)", fork.Words)
	require.Equal(t, "fork U", fork.Label)
	join := explain(Naming{}, p, run, model.Conflict{From: 1, To: 2})
	require.Equal(t, "U's write of x at test.conc:2:1 comes before Main's join of U at test.conc:3:1 (U ends before its join)", join.Words)
	require.Equal(t, "join U", join.Label)
}

func TestJSONFields(t *testing.T) {
	p, res := bank()
	r, err := Build(p, res)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, r))
	var got map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &got))
	for _, k := range []string{"verdict", "engine", "class", "threads", "vars", "locks", "witness", "stats"} {
		require.Contains(t, got, k)
	}
	for _, k := range []string{"reason", "first", "violations"} {
		require.NotContains(t, got, k)
	}
	run := got["witness"].(map[string]any)["run"].([]any)
	require.NotContains(t, run[0].(map[string]any), "target", "begin has no target")

	safe, err := Build(p, engines.Result{Verdict: engines.Serializable, Engine: "brute"})
	require.NoError(t, err)
	buf.Reset()
	require.NoError(t, WriteJSON(&buf, safe))
	require.False(t, strings.Contains(buf.String(), "witness"))
}
