package engines_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/model"
)

// overWatch is a context the memory watch has ended (engines.Within's
// cause when the heap reached a budget of 64 MiB).
func overWatch(t *testing.T) context.Context {
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(&budget.Exceeded{Limit: 64 << 20})
	return ctx
}

const watchReason = "memory budget of 64 MiB reached (--max-memory raises it)"

// TestSettleKeepsTheEnginesMemoryStop: when the watch has ended the
// context, an engine's own memory stop stands, reason and all, whatever
// its words: Settle reads the limit, not the reason.
func TestSettleKeepsTheEnginesMemoryStop(t *testing.T) {
	own := engines.Result{Verdict: engines.Unknown, Engine: "global", Limit: engines.MemoryBudget,
		Reason: "the heap reached 64 MiB after 1,234 states", Stats: engines.Stats{States: 1234}}
	res, err := engines.Settle(overWatch(t), "timeout", own, nil)
	require.NoError(t, err)
	require.Equal(t, own, res)
}

// TestSettleRewordsOtherStops: when the watch has ended the context, an
// unknown for another limit (or none) is the watch's, even when its reason
// happens to contain the words "memory budget"; the answer's limit is then
// the memory budget.
func TestSettleRewordsOtherStops(t *testing.T) {
	for _, other := range []engines.Result{
		{Verdict: engines.Unknown, Engine: "brute", Limit: engines.SearchBound,
			Reason: "no violation within --max-depth 3 events per thread (well within the memory budget)"},
		{Verdict: engines.Unknown, Engine: "global", Limit: engines.Deadline, Reason: "no violation before the timeout"},
		{Verdict: engines.Unknown, Engine: "brute", Reason: "internal error: the memory budget is fine"},
	} {
		res, err := engines.Settle(overWatch(t), "timeout", other, nil)
		require.NoError(t, err)
		require.Equal(t, engines.Result{Verdict: engines.Unknown, Engine: other.Engine, Limit: engines.MemoryBudget,
			Reason: watchReason}, res, other.Reason)
	}
}

// TestCheckWithinRewordsABoundStop: an engine that answers unknown for a
// bound its reason names, in words that mention the memory budget, under
// a context the watch ended, gets the watch's reason: what decides is the
// limit the engine stopped at, not the words of its reason.
func TestCheckWithinRewordsABoundStop(t *testing.T) {
	e := &engines.Engine{Name: "bounded", Check: func(context.Context, *model.Program, engines.Options) (engines.Result, error) {
		return engines.Result{Verdict: engines.Unknown,
			Reason: "no violation within --max-depth 3 events per thread (well within the memory budget)"}, nil
	}}
	res, err := e.CheckWithin(overWatch(t), &model.Program{}, engines.Options{}, time.Second, "timeout")
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, watchReason, res.Reason)
}

// TestSettleNamesTheDeadline: an unknown the deadline ended gets the
// command's timeout reason and the Deadline limit, whatever the engine
// said.
func TestSettleNamesTheDeadline(t *testing.T) {
	ctx, cancel := context.WithDeadline(t.Context(), time.Now())
	defer cancel()
	<-ctx.Done()
	res, err := engines.Settle(ctx, "timeout: no answer within 1ms (--timeout)",
		engines.Result{Verdict: engines.Unknown, Limit: engines.StateBudget, Reason: "no violation within --max-states 5 states"}, nil)
	require.NoError(t, err)
	require.Equal(t, engines.Deadline, res.Limit)
	require.Equal(t, "timeout: no answer within 1ms (--timeout)", res.Reason)
	res, err = engines.Settle(ctx, "timeout", engines.Result{}, context.DeadlineExceeded)
	require.NoError(t, err)
	require.Equal(t, engines.Result{Verdict: engines.Unknown, Limit: engines.Deadline, Reason: "timeout"}, res)
}
