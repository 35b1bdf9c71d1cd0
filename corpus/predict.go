package corpus

import (
	"context"
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/jsonout"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/all"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/report/predicted"
	"github.com/conc-dev/conc/trace"
)

// predictTrace is conc predict --all over one trace (all.Find), cut down
// to its row and its groups: every group whose witness replays, as
// --all's JSON has them, each with the words its text prints.
func predictTrace(ctx context.Context, r *trace.Reader, name string, o Options) (Trace, []Group, error) {
	d, reason := o.Timeout, fmt.Sprintf("timeout: no answer within %v (--timeout)", o.Timeout)
	if d == 0 {
		d, reason = DefaultTimeout, fmt.Sprintf("timeout: no answer within the default time budget of %v (--timeout raises it)", DefaultTimeout)
	}
	ctx, stop := engines.Within(ctx, d, o.MaxMemory)
	defer stop()
	a, err := all.Find(ctx, r, predict.Options{Engine: o.Engine, Unbounded: o.MaxStatesSet && o.MaxStates == 0,
		DefaultDeadline: o.Timeout == 0, Check: engines.Options{LockEdges: o.LockEdges, IgnoreSync: o.IgnoreSync,
			MaxStates: o.MaxStates, MaxDepth: o.MaxDepth, MaxStack: o.MaxStack, MaxMemory: o.MaxMemory}})
	if err != nil {
		return Trace{}, nil, err
	}
	defer a.Close()
	a.Result, _ = engines.Settle(ctx, reason, a.Result, nil) // no error in, none out
	var groups []Group
	err = predicted.Examples(ctx, a, func(x predicted.Example) error {
		g := x.Group
		groups = append(groups, Group{Kind: "predicted", Signature: Normalise(g.Signature), Count: g.Count, Traces: 1,
			Ex: Example{Trace: name, Line: g.First, Signature: g.Signature, Vars: jsonout.NonNil(g.Vars),
				Explanation: lines(string(x.Text)), Detail: x.JSON}})
		return nil
	})
	if err != nil {
		return Trace{}, nil, err
	}
	row := Trace{Name: name, Verdict: a.Result.Verdict.String(), Reason: a.Result.Reason, Events: a.Result.Stats.Events,
		Groups: len(groups), Incomplete: a.Incomplete, Dropped: a.Dropped()}
	if a.Result.Verdict == engines.Serializable && a.Program != nil && len(a.Program.Threads) == 0 {
		row.Reason = report.EmptyTraceNote
	}
	for _, g := range groups {
		row.Count += g.Count
	}
	skipped(&row, o.Lenient, r.Stats())
	return row, groups, nil
}
