package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/report"
)

// memoryVar defines --max-memory, the memory budget (internal/budget):
// a size such as 512MiB or 4GiB; without the flag, three quarters of the
// machine's memory, or less under ulimit -v or -d.
func memoryVar(fs *flag.FlagSet, n *int64) {
	usage := fmt.Sprintf("give up with verdict unknown when the search would take more than `SIZE` of memory "+
		"(e.g. 512MiB, 4GiB; default: %s, %s)", budget.DefaultWhy(), budget.Format(budget.Default()))
	fs.Func("max-memory", usage, func(s string) error {
		v, err := budget.Parse(s)
		if err == nil {
			*n = v
		}
		return err
	})
}

// withMemoryLimit makes the budget (0: the default) the garbage
// collector's soft limit while a command decides; the deferred call
// restores the previous one (tests run many commands in one process).
func withMemoryLimit(limit int64) func() { return budget.SetLimit(limit) }

// refused answers unknown (exit 3) for a program the limits did not let
// compile (why is the reason): the report has no threads, and the engine
// the user asked for (auto when none), since none ran.
func refused(e *env, f *decideFlags, why string) int {
	r, err := refusedReport(f, why)
	if err != nil {
		return e.errorf("internal error (please report): %v", err)
	}
	if err := render(reportWriter(e, f.dot, f.html), f, r); err != nil {
		return e.errorf("%v", err)
	}
	return exitUnknown
}

// refusedReport is refused's report, which conc serve answers too.
func refusedReport(f *decideFlags, why string) (*report.Report, error) {
	res := engines.Result{Verdict: engines.Unknown, Reason: why, Engine: f.engine}
	return report.BuildLean(&model.Program{}, res)
}

// startLimits starts the deadline and the memory watch of f's run before
// it compiles, so that compiling, choosing the engine and searching take
// from one budget: f.within becomes their context, under which the
// search's own limits (runEngine) end no later. stop ends them.
func (f *decideFlags) startLimits() (dl deadline, stop func()) {
	dl = f.deadline()
	f.within, stop = withinLimits(dl, f.maxMemory)
	return dl, stop
}

// compileLimits are the limits of f's run for compiling, under the
// context startLimits made.
func (f *decideFlags) compileLimits() lang.Limits {
	return lang.Limits{Ctx: f.within, MaxBytes: f.maxMemory, MaxStates: int64(f.maxStates)}
}

// withinLimits is the context a search runs under: it ends at dl's
// deadline or, with cause *budget.Exceeded, when the heap reaches the
// memory budget of limit bytes (0: the default). Engines poll the heap as
// they search, but some passes (profile extraction, saturation, building
// tables) count no states: the watch is their backstop. stop ends both.
func withinLimits(dl deadline, limit int64) (ctx context.Context, stop func()) {
	parent := dl.within
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithTimeout(parent, dl.d)
	ctx, unwatch := budget.Watch(ctx, limit)
	return ctx, func() { unwatch(); cancel() }
}

// settle is the answer a search gave under ctx (from withinLimits) once the
// limits are applied: the memory budget's (overBudget); for a search the
// deadline ended, in error or unknown, unknown with dl's reason, one wording
// naming the budget and the flag. Other errors are returned as they are.
func settle(ctx context.Context, dl deadline, res engines.Result, err error) (engines.Result, error) {
	if r, ok := overBudget(ctx, res, err); ok {
		return r, nil
	}
	if err != nil && errors.Is(err, context.DeadlineExceeded) {
		return engines.Result{Verdict: engines.Unknown, Stats: res.Stats, Reason: dl.reason()}, nil
	}
	if err != nil {
		return res, err
	}
	if res.Verdict == engines.Unknown && errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		res.Reason = dl.reason()
	}
	return res, nil
}

// overBudget is the answer when the watch ended the engine's context: a
// verdict the engine reached stands, and so does its own memory reason
// (which counts its states); an engine that answered unknown for the
// context's end, failed, or was abandoned (err is the context's cause) is
// unknown with the budget's reason. ok reports that the watch decided.
func overBudget(ctx context.Context, res engines.Result, err error) (engines.Result, bool) {
	var ex *budget.Exceeded
	switch {
	case !errors.As(context.Cause(ctx), &ex):
		return res, false
	case err == nil && res.Verdict != engines.Unknown,
		err == nil && strings.Contains(res.Reason, "memory budget"):
		return res, false
	}
	return engines.Result{Verdict: engines.Unknown, Reason: ex.Error(), Engine: res.Engine, Stats: res.Stats}, true
}
