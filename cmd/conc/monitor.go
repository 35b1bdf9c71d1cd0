package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

func init() {
	register(&command{
		name:    "monitor",
		args:    "TRACE [flags]",
		summary: "is the observed trace itself non-serializable?",
		help:    traceHelp,
		run:     runMonitor,
	})
}

// monitorFlags are conc monitor's flags: docs/spec.md §4's that apply to one
// observed trace, plus --lenient (docs/spec.md §3) and --first.
type monitorFlags struct {
	format    string
	lockEdges bool
	lenient   bool
	first     bool
	dot       string
	html      string
	maxCycle  int
	maxGroups int
	all       bool
	timeout   time.Duration
	maxMemory int64 // bytes; 0: budget.Default()
	quiet     bool
	progress  progressMode
	cycles    bool
	notAtomic setString
}

func (f *monitorFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.format, "format", "text", "output `format`: text or json")
	fs.BoolVar(&f.lockEdges, "lock-edges", false, "release→acquire and fork/join also conflict (as in Velodrome, AeroDrome and RAPID)")
	fs.BoolVar(&f.lenient, "lenient", false, lenientHelp)
	fs.BoolVar(&f.first, "first", false, "stop at the first violating event, as RAPID does")
	fs.StringVar(&f.dot, "dot", "", "write the example cycles of the groups (at most --max-groups) as a Graphviz digraph to `FILE` "+dashHelp)
	fs.StringVar(&f.html, "html", "", htmlHelp)
	fs.IntVar(&f.maxCycle, "max-cycle", monitor.DefaultMaxCycle, "list at most `N` transactions of each cycle; the middle of a longer one is elided")
	fs.IntVar(&f.maxGroups, "max-groups", 20, "list at most `N` groups of violating transactions in the text output (0: all)")
	fs.BoolVar(&f.all, "all", false, "also list every broken transaction (with --cycles: every transaction on a cycle) in the text output, one a line")
	fs.BoolVar(&f.cycles, "cycles", false, "report every transaction on a cycle of conflicts, grouped (Velodrome's answer), instead of the transactions broken by themselves")
	fs.Var(&f.notAtomic, "not-atomic", "treat the blocks whose begin is at `SPEC[,SPEC...]` as not atomic: SPEC is a begin's LOC or line:N (its trace line); @FILE reads SPECs from FILE")
	timeoutVar(fs, &f.timeout, timeoutHelp)
	memoryVar(fs, &f.maxMemory)
	fs.BoolVar(&f.quiet, "quiet", false, "leave out the summary line of the text output")
	fs.Var(&f.progress, "progress", progressHelp)
}

// runMonitor is conc monitor: read one trace ("-" is standard input, .gz
// is inflated) and report whether the observed run is conflict-serializable,
// where it stopped being so, and every transaction on a conflict cycle.
func runMonitor(e *env, args []string) int {
	var f monitorFlags
	files, code, done := parseCommand(e, "monitor", f.register, args)
	if done {
		return code
	}
	switch {
	case len(files) != 1:
		return e.errorf("monitor: want one TRACE argument, got %d; run 'conc monitor --help'", len(files))
	case f.format != "text" && f.format != "json":
		return e.badFlag("format", f.format, "want text or json")
	case f.maxCycle < 1:
		return e.badFlag("max-cycle", f.maxCycle, "want 1 or more")
	case f.maxGroups < 0:
		return e.badFlag("max-groups", f.maxGroups, "want 0 (all) or more")
	}
	r, closeTrace, err := openTrace(e, files[0], trace.Options{Lenient: f.lenient}, f.progress.enabled(e))
	if err != nil {
		return inputError(e, err)
	}
	defer closeTrace()
	outs, err := createOutputs(e, outputPaths{dot: f.dot, html: f.html}, inputFiles(e, files[0]))
	if err != nil {
		return e.usagef("%v", err)
	}
	defer outs.close()
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if f.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
	}
	defer cancel()
	defer withMemoryLimit(f.maxMemory)()
	ctx, unwatch := budget.Watch(ctx, f.maxMemory)
	defer unwatch()
	opts := monitor.TraceOptions{LockEdges: f.lockEdges, StopAtFirst: f.first, MaxCycle: f.maxCycle}
	na, err := notAtomicSpec(f.notAtomic, r)
	if err != nil {
		return e.badFlag("not-atomic", f.notAtomic.value, err.Error())
	}
	if na != nil {
		opts.NotAtomic = na.is
	}
	var spool *violationSpool
	var blame *blameSpool
	switch {
	case !f.cycles:
		// The broken transactions; of the cycles, the first only (the
		// joint violation), the others counted.
		blame = &blameSpool{keepAll: f.format == "json" || f.all}
		opts.Blame, opts.OnBroken, opts.MaxViolations = true, blame.add, 1
	case f.format == "text" && !f.all:
		// The text and DOT show groups only: the violations stream into a
		// compact spool instead of the result (memory: docs/traces.md).
		spool = &violationSpool{}
		opts.OnViolation = spool.add
	}
	res, err := monitor.CheckTrace(ctx, r, opts)
	if err == nil && res.Violation {
		err = r.VerifyRest(ctx) // --first stopped early: no verdict on a corrupt .gz
	}
	if err != nil {
		fmt.Fprintln(e.stderr, err) // trace errors read "file:line: reason"
		return exitUsage
	}
	firstCycle := append([]monitor.TraceViolation(nil), res.Violations[:min(1, len(res.Violations))]...) // monitorAnswer lets them go
	na.warnUnused(e)
	rep := report.BuildTrace(monitorAnswer(r, res))
	reportSkipped(e, f.lenient, f.format, rep, r.Stats())
	var ex *budget.Exceeded
	if rep.Reason != "" && errors.As(context.Cause(ctx), &ex) {
		rep.Reason = ex.Error() + ": the trace was not read to its end"
	}
	switch {
	case blame != nil:
		err = blameReport(ctx, e, files[0], r, rep, blame, firstCycle, res.BrokenStopped)
	case spool != nil:
		err = groupSpool(ctx, e, files[0], rep, spool, r.Threads())
	default:
		err = groupViolations(ctx, e, files[0], rep)
	}
	if err != nil {
		return e.errorf("%v", err)
	}
	rep.ShowGroups = f.maxGroups
	if w := reportWriter(e, f.dot, f.html); f.format == "json" {
		err = report.WriteJSON(w, rep)
	} else {
		err = report.WriteText(w, rep, report.TextOptions{Quiet: f.quiet, All: f.all})
	}
	if err != nil {
		return e.errorf("%v", err)
	}
	if err := outs.writePictures(rep); err != nil {
		return e.usagef("%v", err)
	}
	return exitCode(verdictOf(res))
}

// verdictOf: a violation found is final even if the check stopped early;
// otherwise an early stop leaves the answer unknown.
func verdictOf(res monitor.TraceResult) engines.Verdict {
	switch {
	case res.Violation:
		return engines.Violation
	case res.Stopped != "":
		return engines.Unknown
	}
	return engines.Serializable
}

// monitorAnswer is the monitor's answer in report's terms (report.BuildTrace
// makes the report). Each monitor violation is let go once yielded, and its
// cycle's steps go through one reused slice: a trace can have a million.
func monitorAnswer(r *trace.Reader, res monitor.TraceResult) report.TraceAnswer {
	return report.TraceAnswer{
		Verdict: verdictOf(res),
		Threads: r.Threads().Len(),
		Vars:    r.Vars().Len(),
		Locks:   r.Locks().Len(),
		Names:   res.Threads,
		First:   res.First,
		Count:   res.Count,
		Stats:   engines.Stats{States: res.Stats.MaxLive, Events: res.Stats.Events, Millis: res.Stats.Millis},
		Len:     len(res.Violations),
		Cycles: func(yield func(report.TraceCycle) bool) {
			var steps []report.CycleStep
			for i, v := range res.Violations {
				res.Violations[i] = monitor.TraceViolation{}
				steps = steps[:0]
				for _, s := range v.Cycle {
					steps = append(steps, report.CycleStep{Thread: s.Thread, Line: s.Line, Begin: s.Begin})
				}
				c := report.TraceCycle{Thread: v.Thread, Begin: v.Begin, End: v.End, Out: v.Out, In: v.In,
					Steps: steps, Elided: v.Elided, ElidedAt: v.ElidedAt}
				if !yield(c) {
					return
				}
			}
		},
	}
}
