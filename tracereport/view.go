package tracereport

import (
	"context"
	"errors"
	"io"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/monitor/view"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// monitorView is Monitor under --criterion view: the view checker's one
// reading of the trace (package monitor/view), its answer as a report,
// its obstacles in words.
func monitorView(ctx context.Context, r *trace.Reader, o Options) (*report.Report, engines.Verdict, error) {
	vo := view.Options{MaxStates: o.MaxStates, LockEdges: o.LockEdges}
	if n := o.NotAtomic; n != nil {
		n.used = map[string]bool{}
		vo.NotAtomic = func(ev *trace.Event) bool { return n.is(r, ev) }
	}
	res, err := view.Check(ctx, r, vo)
	if err != nil {
		return nil, engines.Unknown, err
	}
	o.NotAtomic.noteUnused(o.Notes)
	verdict := [...]engines.Verdict{view.Serializable: engines.Serializable, view.Violation: engines.Violation, view.Unknown: engines.Unknown}[res.Verdict]
	rep := report.BuildView(viewAnswer(r, res, verdict, viewReason(ctx, res)))
	if o.Lenient {
		var notes io.Writer
		if o.NoteSkipped {
			notes = o.Notes
		}
		Skipped(rep, r.Stats(), notes)
	}
	return rep, verdict, nil
}

// viewReason is an Unknown's reason in docs/spec.md §7's words: the
// deadline's or the memory budget's when the context ended, else the
// search's budget.
func viewReason(ctx context.Context, res view.Result) string {
	if res.Verdict != view.Unknown {
		return ""
	}
	where := "the search for a view-equivalent serial order did not finish"
	if res.Decided == view.StageRead {
		where = "the trace was not read to its end"
	}
	var ex *budget.Exceeded
	switch cause := context.Cause(ctx); {
	case errors.As(cause, &ex):
		return ex.Error() + ": " + where
	case cause != nil:
		return "timeout: " + where + " (--timeout)"
	}
	return res.Reason
}

// viewAnswer converts the view checker's result into report's terms,
// its obstacles worded with the report's thread names.
func viewAnswer(r *trace.Reader, res view.Result, verdict engines.Verdict, reason string) report.ViewAnswer {
	naming := report.NamingOf(res.Threads)
	names := res.Names()
	names.Thread = func(t int32) string { return naming.Thread(res.Threads[t]) }
	a := report.ViewAnswer{Verdict: verdict, Reason: reason, Threads: r.Threads().Len(), Vars: r.Vars().Len(),
		Locks: r.Locks().Len(), Names: res.Threads, Transactions: res.Stats.Txns, DecidedBy: string(res.Decided),
		ObstaclesFound: res.Stats.Obstacles,
		Stats:          engines.Stats{States: res.Stats.States, Events: res.Stats.Events, Millis: res.Stats.Millis}}
	a.Order = make([]report.ViewTxn, len(res.Order))
	ends := make([]int64, len(res.Order)) // one array for a million ends
	for i, t := range res.Order {
		a.Order[i] = report.ViewTxn{Thread: res.Threads[t.Thread], Begin: t.Begin}
		if t.End >= 0 {
			ends[i] = t.End
			a.Order[i].End = &ends[i]
		}
	}
	res.Order = nil
	for _, o := range res.Why {
		ob := report.ViewObstacle{Kind: obstacleKinds[o.Kind], Words: names.Words(o), Transactions: []report.ViewTxn{}}
		if o.Var >= 0 {
			ob.Variable = res.Vars[o.Var]
		}
		for _, t := range involved(o) {
			ob.Transactions = append(ob.Transactions, viewTxn(res, t))
		}
		a.Obstacles = append(a.Obstacles, ob)
	}
	return a
}

var obstacleKinds = map[view.ObstacleKind]string{view.OwnWriteLost: "own-write-lost", view.SplitRead: "split-read",
	view.StaleRead: "stale-read", view.Cycle: "cycle", view.NoPlace: "no-place", view.Exhausted: "exhausted"}

func viewTxn(res view.Result, t view.Txn) report.ViewTxn {
	v := report.ViewTxn{Thread: res.Threads[t.Thread], Begin: t.Begin}
	if t.End >= 0 {
		end := t.End
		v.End = &end
	}
	return v
}

// involved are the transactions o names, each once, in order of mention.
func involved(o view.Obstacle) []view.Txn {
	var out []view.Txn
	seen := map[view.Txn]bool{}
	add := func(t view.Txn) {
		if t.Thread >= 0 && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, e := range o.Events {
		add(e.Txn)
	}
	for _, p := range o.Paths {
		for _, f := range p {
			add(f.Before)
			add(f.After)
			add(f.Third)
		}
	}
	return out
}
