package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/conc-dev/conc/check"
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/lang"
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
// compile (check.Compile's unknown answer): the report has no threads,
// and the engine the user asked for (auto when none), since none ran.
func refused(e *env, f *decideFlags, unknown engines.Result) int {
	r, err := check.Refused(f.engine, unknown)
	if err != nil {
		return e.errorf("internal error (please report): %v", err)
	}
	if err := render(reportWriter(e, f.dot, f.html), f, r); err != nil {
		return e.errorf("%v", err)
	}
	return exitUnknown
}

// startLimits starts the deadline and the memory watch of f's run before
// it compiles (check.Request.Start): f.within becomes the context of
// compiling, choosing the engine and searching. stop ends them.
func (f *decideFlags) startLimits() (dl deadline, stop func()) {
	req := f.request()
	dl, stop = req.Start()
	f.within = req.Within
	return dl, stop
}

// compileLimits are the limits of f's run for compiling, under the
// context startLimits made.
func (f *decideFlags) compileLimits() lang.Limits {
	req := f.request()
	return req.CompileLimits()
}

// withinLimits is the context a search runs under: dl's deadline and the
// memory budget of limit bytes (0: the default), engines.Within.
func withinLimits(dl deadline, limit int64) (ctx context.Context, stop func()) {
	return dl.Limits(limit)
}

// settle is engines.Settle with dl's reason for a search it ended.
func settle(ctx context.Context, dl deadline, res engines.Result, err error) (engines.Result, error) {
	return dl.Settle(ctx, res, err)
}
