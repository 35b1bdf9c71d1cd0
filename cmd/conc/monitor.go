package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/tracereport"
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

// runMonitor is conc monitor: read one trace ("-" is standard input, .gz
// is inflated) and report whether the observed run is conflict-serializable,
// where it stopped being so, and every transaction on a conflict cycle
// (tracereport.Monitor makes the report).
func runMonitor(e *env, args []string) int {
	var f monitorFlags
	files, code, done := parseCommand(e, "monitor", f.register, args)
	if done {
		return code
	}
	if code, bad := f.check(e, files); bad {
		return code
	}
	if f.corpus.several(files) {
		return runMonitorCorpus(e, &f, files)
	}
	r, closeTrace, err := openTrace(e, files[0], trace.Options{Lenient: f.lenient, Orderings: true}, f.progress.Enabled(e.stderr))
	if err != nil {
		return inputError(e, err)
	}
	defer closeTrace()
	outs, err := createOutputs(e, outputPaths{dot: f.dot, html: f.html}, inputFiles(e, files[0]))
	if err != nil {
		return e.usagef("%v", err)
	}
	defer outs.close()
	ctx, stop := f.limits()
	defer stop()
	na, err := notAtomicSpec(f.notAtomic)
	if err != nil {
		return e.badFlag("not-atomic", f.notAtomic.value, err.Error())
	}
	rep, verdict, err := tracereport.Monitor(ctx, r, f.options(e, files[0], na))
	var reread *tracereport.SecondReadingError
	switch {
	case errors.As(err, &reread):
		return e.errorf("%v", err)
	case err != nil:
		fmt.Fprintln(e.stderr, err) // trace errors read "file:line: reason"
		return exitUsage
	}
	if code, ok := f.render(e, outs, rep); !ok {
		return code
	}
	return exitCode(verdict)
}

// check checks the flags' values the flag package cannot.
func (f *monitorFlags) check(e *env, files []string) (code int, bad bool) {
	switch {
	case len(files) != 1 && !f.corpus.several(files):
		return e.errorf("monitor: want one TRACE argument, got %d; run 'conc monitor --help'", len(files)), true
	case f.format != "text" && f.format != "json":
		return e.badFlag("format", f.format, "want text or json"), true
	case f.maxCycle < 1:
		return e.badFlag("max-cycle", f.maxCycle, "want 1 or more"), true
	case f.maxGroups < 0:
		return e.badFlag("max-groups", f.maxGroups, "want 0 (all) or more"), true
	case f.criterion != "conflict" && f.criterion != "view":
		return e.badFlag("criterion", f.criterion, "want conflict or view"), true
	}
	return f.checkCriterion(e)
}

// checkCriterion refuses the flags that do not apply to the criterion:
// view has no cycles of conflicts to stop at, list or draw, conflict no
// search to bound.
func (f *monitorFlags) checkCriterion(e *env) (code int, bad bool) {
	given := map[string]bool{"first": f.first, "cycles": f.cycles, "dot": f.dot != "", "html": f.html != ""}
	for _, name := range []string{"first", "cycles", "dot", "html"} {
		if given[name] && f.criterion == "view" {
			return e.errorf("monitor: --%s applies to --criterion conflict (the conflict graph's cycles); run 'conc monitor --help'", name), true
		}
	}
	if f.statesSet && f.criterion != "view" {
		return e.errorf("monitor: --max-states applies to --criterion view (the conflict graph needs no search); run 'conc monitor --help'"), true
	}
	return 0, false
}

// limits is the run's context under --timeout and --max-memory, and the
// function that ends them.
func (f *monitorFlags) limits() (context.Context, func()) {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if f.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
	}
	unlimit := withMemoryLimit(f.maxMemory)
	ctx, unwatch := budget.Watch(ctx, f.maxMemory)
	return ctx, func() { unwatch(); unlimit(); cancel() }
}

// options are the flags in tracereport's terms, its notes on standard
// error.
func (f *monitorFlags) options(e *env, path string, na *tracereport.NotAtomic) tracereport.Options {
	return tracereport.Options{Path: path, LockEdges: f.lockEdges, First: f.first, MaxCycle: f.maxCycle,
		Cycles: f.cycles, ListAll: f.format == "json" || f.all, NotAtomic: na,
		Lenient: f.lenient, NoteSkipped: f.format == "text", Notes: e.stderr,
		View: f.criterion == "view", MaxStates: int64(f.maxStates)}
}

// render writes rep as the flags ask: text or JSON on standard output
// (standard error when an output file is "-"), and the DOT and HTML files.
func (f *monitorFlags) render(e *env, outs *outputs, rep *report.Report) (code int, ok bool) {
	rep.ShowGroups = f.maxGroups
	var err error
	if w := reportWriter(e, f.dot, f.html); f.format == "json" {
		err = report.WriteJSON(w, rep)
	} else {
		err = report.WriteText(w, rep, report.TextOptions{Quiet: f.quiet, All: f.all})
	}
	if err != nil {
		return e.errorf("%v", err), false
	}
	if err := outs.writePictures(rep); err != nil {
		return e.usagef("%v", err), false
	}
	return 0, true
}
