package predict

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict/internal/tuning"
	"github.com/conc-dev/conc/trace"
)

// guarded: the lock keeps T2 out of T1's transaction; dropping the lock
// lets it in, so the lock-free check finds a run that the engine must refute.
const guarded = `T1|acq(m)
T1|begin
T1|r(x)
T1|w(x)
T1|end
T1|rel(m)
T2|acq(m)
T2|w(x)
T2|rel(m)
`

// TestTableGuard: a reduced projection whose tables would exceed maxTable
// is unknown, with the sizes in the reason, instead of a search that cannot
// fit; within the limit the engine decides.
func TestTableGuard(t *testing.T) {
	out := predictString(t, guarded, Options{Engine: "global", Tuning: tuning.Limits{MaxTable: 1}})
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Contains(t, out.Result.Reason, "too large for the global engine")
	out = predictString(t, guarded, Options{Engine: "global"})
	require.Equal(t, engines.Serializable, out.Result.Verdict)
	require.Len(t, out.Program.Threads, 2)
}

// TestTableMemoryBudget: tables that would not fit beside the heap in the
// memory budget (--max-memory; here one byte, which nothing fits) are not
// built: the answer is unknown and names the flag.
func TestTableMemoryBudget(t *testing.T) {
	out := predictString(t, guarded, Options{Engine: "global", Check: engines.Options{MaxMemory: 1}})
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Regexp(t, `^the global engine's tables for the reduced projection \(\d+ states over 1 shared variables\) `+
		`would need about \d+ bytes, more than the memory budget of 1 bytes leaves \(--max-memory raises it\)$`, out.Result.Reason)
}

// TestReducedDrops: private variables, private locks and transactions left
// empty are not in the reduced projection; the shared ones are.
func TestReducedDrops(t *testing.T) {
	src := `T1|begin
T1|acq(p)
T1|r(mine)
T1|rel(p)
T1|end
T1|acq(m)
T1|w(x)
T1|rel(m)
T2|acq(m)
T2|r(x)
T2|rel(m)
T2|w(mine2)
`
	p := newTestPredictor(t, src, Options{})
	rd, err := p.s.Reduce(p.sp, p.u, false, false, false)
	require.NoError(t, err)
	require.Equal(t, []string{"x"}, rd.Program.Vars)
	require.Equal(t, []string{"m"}, rd.Program.Locks)
	// T1: acq m; begin; w x; end; rel m (its first transaction is gone).
	require.Equal(t, 5, rd.Program.Threads[0].Auto.NumEdges())
	require.Equal(t, []int64{5, 6, 7, 8, 9}, rd.Orig[0])
	require.Equal(t, 5, rd.Program.Threads[1].Auto.NumEdges()) // acq m; begin; r x; end; rel m
	require.Equal(t, []int64{10, 8}, rd.Full)
	size, err := p.s.Reduce(p.sp, p.u, false, false, true)
	require.NoError(t, err)
	require.Equal(t, int64(5+1+5+1), size.States)
	require.Equal(t, [2]int{1, 1}, [2]int{size.Vars, size.Locks})
}

// lockedTrace is a synthetic trace with one lock that every access takes
// (trace.Gen), so the critical-section proof would settle it; --engine
// global skips that proof, which leaves the product search.
func lockedTrace(t *testing.T, events int64) string {
	g := trace.NewGen(trace.GenOptions{Seed: 3, Events: events, Threads: 2, Vars: 2, Locks: 1, TxnLen: 2,
		Unprotected: 0.1, Unary: 0.1, Writes: 0.5})
	var b strings.Builder
	_, err := g.WriteTo(&b)
	require.NoError(t, err)
	return b.String()
}

// TestDefaultLimits: without --max-states or --timeout a large reduced
// projection is unknown at once, naming its size, and a smaller one stops
// at the default budget instead of running for hours; the proof answers the
// same trace under auto.
func TestDefaultLimits(t *testing.T) {
	src := lockedTrace(t, 200_000)
	out := predictString(t, src, Options{Engine: "global"})
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Contains(t, out.Result.Reason, "more than the global engine is started on by default")

	out = predictString(t, src, Options{})
	require.Equal(t, engines.Serializable, out.Result.Verdict, out.Result.Reason)

	src = lockedTrace(t, 30_000)
	out = predictString(t, src, Options{Engine: "global", Tuning: tuning.Limits{Budget: 2000}})
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Contains(t, out.Result.Reason, "no violation within predict's default budget of 2000 states")
	require.LessOrEqual(t, out.Result.Stats.States, int64(2001))

	out = predictString(t, src, Options{Engine: "global", Check: engines.Options{MaxStates: 500}})
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Contains(t, out.Result.Reason, "--max-states 500")

	// An explicit --max-states 0 (Unbounded) turns the default budget off.
	src = lockedTrace(t, 1000)
	out = predictString(t, src, Options{Engine: "global", Tuning: tuning.Limits{Budget: 200}})
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	out = predictString(t, src, Options{Engine: "global", Tuning: tuning.Limits{Budget: 200}, Unbounded: true})
	require.Equal(t, engines.Serializable, out.Result.Verdict, out.Result.Reason)
	require.Greater(t, out.Result.Stats.States, int64(200))
}

// TestCascadeStepAllows: a step that answers what its row says it does not
// decide is an internal error, never an answer; an unknown always passes.
func TestCascadeStepAllows(t *testing.T) {
	proof := cascadeStep{name: "a proof", decides: proves}
	witness := cascadeStep{name: "a witness", decides: findsViolation}
	answer := func(v engines.Verdict) *Outcome { return &Outcome{Result: engines.Result{Verdict: v}} }
	require.NoError(t, proof.allows(answer(engines.Serializable), nil))
	require.NoError(t, proof.allows(answer(engines.Unknown), nil))
	require.ErrorContains(t, proof.allows(answer(engines.Violation), nil), `step "a proof" answered violation`)
	require.NoError(t, witness.allows(answer(engines.Violation), nil))
	require.ErrorContains(t, witness.allows(answer(engines.Serializable), nil), `step "a witness" answered serializable`)
}

// Under the default budget the product search's unknown at its state
// limit says so in predict's words; an unknown for another limit (the
// memory budget) keeps the engine's reason, which names that limit.
func TestGaveUpKeepsOtherLimits(t *testing.T) {
	p := &predictor{ctx: context.Background()}
	require.True(t, p.defaultBudget())
	mem := engines.Result{Engine: "global", Verdict: engines.Unknown, Limit: engines.MemoryBudget,
		Reason: "the memory budget of 1 MiB was reached (--max-memory raises it)"}
	u := p.gaveUp(mem)
	require.Equal(t, mem.Reason, u.out.Result.Reason)
	require.Equal(t, engines.MemoryBudget, u.out.Result.Limit)
	states := engines.Result{Engine: "global", Verdict: engines.Unknown, Limit: engines.StateBudget, Reason: "state limit"}
	u = p.gaveUp(states)
	require.Contains(t, u.out.Result.Reason, "no violation within predict's default budget of")
}
