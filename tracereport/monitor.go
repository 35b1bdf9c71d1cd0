package tracereport

import (
	"context"
	"errors"
	"io"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/monitor/pass"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// Options are what conc monitor's flags ask of the report.
type Options struct {
	// Path is the trace's file ("-": standard input), read a second time
	// for the sites of the cycles' events when it is a regular file.
	Path string
	// LockEdges, First and MaxCycle are pass.Options' LockEdges,
	// StopAtFirst and MaxCycle.
	LockEdges, First bool
	MaxCycle         int
	// Cycles reports every transaction on a cycle of conflicts, grouped
	// (Velodrome's answer), instead of the transactions broken by
	// themselves.
	Cycles bool
	// ListAll keeps every violating (or broken) transaction, for an output
	// that lists them (the JSON, --all). Without it the report holds their
	// groups only, and memory does not grow with their number
	// (docs/traces.md).
	ListAll bool
	// NotAtomic, if not nil, names the blocks that are not atomic.
	NotAtomic *NotAtomic
	// Lenient counts the lines the reader skipped into the report
	// (Skipped); NoteSkipped also says so in Notes.
	Lenient, NoteSkipped bool
	// Notes receives what the report cannot say: a --not-atomic name that
	// named no begin, the lines skipped, why the cycles' events are named
	// by line only.
	Notes io.Writer
	// View decides the view criterion instead (package monitor/view),
	// its search bounded by MaxStates (0: its default); First, Cycles and
	// MaxCycle do not apply.
	View      bool
	MaxStates int64
}

// Monitor reads the trace r once with the trace monitor, then again (when
// it is a file) for the sites of the cycles' events, and returns the
// report of its answer and the verdict. An error of the first reading is
// the trace's (trace errors read "file:line: reason"); one of the second
// is a *SecondReadingError.
func Monitor(ctx context.Context, r *trace.Reader, o Options) (*report.Report, engines.Verdict, error) {
	if o.View {
		return monitorView(ctx, r, o)
	}
	c := newCollector(r, o)
	res, err := pass.Check(ctx, r, c.opts)
	if err == nil && res.Violation {
		err = r.VerifyRest(ctx) // --first stopped early: no verdict on a corrupt .gz
	}
	if err != nil {
		return nil, engines.Unknown, err
	}
	first := append([]monitor.TraceViolation(nil), res.Violations[:min(1, len(res.Violations))]...) // answerOf lets them go
	o.NotAtomic.noteUnused(o.Notes)
	rep := report.BuildTrace(answerOf(r, res))
	if o.Lenient {
		var notes io.Writer
		if o.NoteSkipped {
			notes = o.Notes
		}
		Skipped(rep, r.Stats(), notes)
	}
	var ex *budget.Exceeded
	if rep.Reason != "" && errors.As(context.Cause(ctx), &ex) {
		rep.Reason = ex.Error() + ": the trace was not read to its end"
	}
	if err := c.group(ctx, rep, first, res.BrokenStopped); err != nil {
		return nil, engines.Unknown, &SecondReadingError{err}
	}
	return rep, verdictOf(res), nil
}

// collector is where the monitor's answer goes while the trace is read:
// the broken transactions into a blameSpool (the default answer), or the
// violations into a violationSpool (--cycles, grouped only), or, when
// every one is listed, into the monitor's result.
type collector struct {
	r     *trace.Reader
	opts  pass.Options
	again secondReading
	spool *violationSpool
	blame *blameSpool
}

func newCollector(r *trace.Reader, o Options) *collector {
	c := &collector{r: r, again: secondReading{path: o.Path, notes: o.Notes}}
	c.opts = pass.Options{TraceOptions: monitor.TraceOptions{LockEdges: o.LockEdges, MaxCycle: o.MaxCycle}, StopAtFirst: o.First}
	if n := o.NotAtomic; n != nil {
		n.used = map[string]bool{}
		c.opts.NotAtomic = func(ev *trace.Event) bool { return n.is(r, ev) }
	}
	switch {
	case !o.Cycles:
		// The broken transactions; of the cycles, the first only (the
		// joint violation), the others counted.
		c.blame = &blameSpool{keepAll: o.ListAll}
		c.opts.Blame, c.opts.OnBroken, c.opts.MaxViolations, c.opts.CountBlocks = true, c.blame.add, 1, true
	case !o.ListAll:
		// The text and DOT show groups only: the violations stream into a
		// compact spool instead of the result (memory: docs/traces.md).
		c.spool = &violationSpool{}
		c.opts.OnViolation = c.spool.add
	}
	return c
}

// group puts the collected answer, grouped, into rep; first is the
// monitor's first cycle, stopped why the blame stopped ("" if it did not).
func (c *collector) group(ctx context.Context, rep *report.Report, first []monitor.TraceViolation, stopped string) error {
	switch {
	case c.blame != nil:
		return blameReport(ctx, c.again, c.r, rep, c.blame, first, stopped)
	case c.spool != nil:
		return groupSpool(ctx, c.again, rep, c.spool, c.r.Threads())
	}
	return groupViolations(ctx, c.again, rep)
}
