package main

import (
	"io"
	"os"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/report"
)

// timeoutGrace is how long past the end of its context (the deadline, or
// the memory budget) an engine may run before the CLI stops waiting for it:
// engines watch the context, this is a backstop.
// (A variable so that tests need not wait a second.)
var timeoutGrace = time.Second

// decide is the pipeline of conc check: choose the engine, run it under the
// limits, replay a violation's witness (replay.go), render the answer and map
// the verdict to an exit code. inputs are the files p was read from,
// which --dot and --html refuse to overwrite.
func decide(e *env, f *decideFlags, p *model.Program, inputs []os.FileInfo) int {
	p, eng, code := engineFor(e, f, p)
	if eng == nil {
		return code
	}
	outs, err := createOutputs(e, outputPaths{dot: f.dot, html: f.html}, inputs)
	if err != nil {
		return e.usagef("%v", err)
	}
	defer outs.close()
	r, code := judge(e, f, eng, p)
	if r == nil {
		return code
	}
	if err := render(reportWriter(e, f.dot, f.html), f, r); err != nil {
		return e.errorf("%v", err)
	}
	if err := outs.writePictures(r); err != nil {
		return e.usagef("%v", err)
	}
	return code
}

// engineFor is the program to check (without its lock, fork and join
// events under --ignore-sync) and the engine --engine picks for it; a nil
// engine comes with the exit code of the usage error it reported.
func engineFor(e *env, f *decideFlags, p *model.Program) (*model.Program, *engines.Engine, int) {
	if f.ignoreSync {
		p = model.DropSync(p)
	}
	eng, err := chooseEngine(f.engine, p, f.options())
	if err != nil {
		return p, nil, e.usagef("%v", err)
	}
	return p, eng, 0
}

// judge runs eng on p under the limits, replays a violation's witness and
// builds the report, with the verdict's exit code; a nil report comes with
// the exit code of the error it reported. conc serve answers with it too
// (serve.go), so the playground's JSON is conc check's.
func judge(e *env, f *decideFlags, eng *engines.Engine, p *model.Program) (*report.Report, int) {
	opts := f.options()
	res, err := runEngine(eng, p, opts, f.deadline())
	if err != nil {
		return nil, e.errorf("engine %s failed: %v", eng.Name, err)
	}
	if err := replays(p, opts, res); err != nil {
		return nil, unreplayable(e, res.Engine, err)
	}
	if f.ignoreSync && res.Verdict == engines.Violation && res.Reason == "" {
		res.Reason = engines.OptimisticNote
	}
	r, err := report.BuildLean(p, res)
	if err != nil {
		return nil, e.errorf("internal error (please report): %v", err)
	}
	return r, exitCode(res.Verdict)
}

// runEngine runs eng under its deadline (--timeout or the default) and the
// memory budget. The limits end in Unknown, never in an error
// (engines.Settle); an engine that has not answered timeoutGrace after
// they ended its context is abandoned.
func runEngine(eng *engines.Engine, p *model.Program, opts engines.Options, dl deadline) (engines.Result, error) {
	ctx, stop := withinLimits(dl, opts.MaxMemory)
	defer stop()
	return eng.CheckWithin(ctx, p, opts, timeoutGrace, dl.reason())
}

func render(w io.Writer, f *decideFlags, r *report.Report) error {
	if f.format == "json" {
		return report.WriteJSON(w, r)
	}
	return report.WriteText(w, r, report.TextOptions{Quiet: f.quiet})
}

func exitCode(v engines.Verdict) int {
	switch v {
	case engines.Serializable:
		return exitSerializable
	case engines.Violation:
		return exitViolation
	}
	return exitUnknown
}
