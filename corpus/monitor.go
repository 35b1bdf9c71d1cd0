package corpus

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/internal/jsonout"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/tracereport"
)

// monitorTrace is conc monitor over one trace (tracereport.Monitor, its
// groups only: memory does not grow with their transactions), cut down to
// its row and its groups.
func monitorTrace(ctx context.Context, r *trace.Reader, name, path string, o Options) (Trace, []Group, error) {
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	ctx, unwatch := budget.Watch(ctx, o.MaxMemory)
	defer unwatch()
	maxCycle := o.MaxCycle
	if maxCycle == 0 {
		maxCycle = monitor.DefaultMaxCycle
	}
	rep, verdict, err := tracereport.Monitor(ctx, r, tracereport.Options{Path: path, LockEdges: o.LockEdges,
		First: o.First, MaxCycle: maxCycle, Cycles: o.Cycles, NotAtomic: o.NotAtomic.Copy(), Lenient: o.Lenient, Notes: io.Discard})
	if err != nil {
		return Trace{}, nil, err
	}
	row := Trace{Name: name, Verdict: verdict.String(), Reason: rep.Reason, First: int64(rep.First), Events: rep.Stats.Events,
		Skipped: rep.Skipped, SkippedKinds: rep.SkippedKinds}
	var groups []Group
	add := func(kind string, gs []report.Group) error {
		for i := range gs {
			g, err := monitorGroup(kind, name, rep.Naming(), &gs[i])
			if err != nil {
				return err
			}
			groups = append(groups, g)
			row.Groups++
			if kind != "joint" {
				row.Count += g.Count
			}
		}
		return nil
	}
	if rep.NonAtomicUnknown != "" {
		row.Incomplete = "broken transactions not decided: " + rep.NonAtomicUnknown
	}
	if o.Cycles {
		err = add("violating", rep.Groups)
	} else if err = add("broken", rep.NonAtomicGroups); err == nil {
		err = add("joint", rep.Joint)
	}
	return row, groups, err
}

// monitorGroup is g, a group of the trace called name, as a corpus group
// of kind: its count, and its example in the words of the trace's text
// and JSON.
func monitorGroup(kind, name string, n report.Naming, g *report.Group) (Group, error) {
	var text bytes.Buffer
	if err := report.WriteExample(&text, n, g); err != nil {
		return Group{}, err
	}
	detail, err := jsonout.Marshal(g)
	if err != nil {
		return Group{}, err
	}
	return Group{Kind: kind, Signature: Normalise(g.Signature), Count: int64(g.Count), Traces: 1, Ex: Example{
		Trace: name, Line: int64(g.First), Signature: g.Signature, Vars: jsonout.NonNil(g.Vars()),
		Explanation: lines(text.String()), Detail: detail,
	}}, nil
}

// lines are text's lines without their line ends.
func lines(text string) []string {
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}
