package main

import (
	"flag"
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/report"
)

// memoryVar defines --max-memory, the memory budget (internal/budget):
// a size such as 512MiB or 4GiB; without the flag, three quarters of the
// machine's memory.
func memoryVar(fs *flag.FlagSet, n *int64) {
	usage := fmt.Sprintf("give up with verdict unknown when the search would take more than `SIZE` of memory "+
		"(e.g. 512MiB, 4GiB; default: 3/4 of this machine's memory, %s)", budget.Format(budget.Default()))
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

// refused answers unknown (exit 3) for a program the memory budget did not
// let compile: the report has no threads, and the engine the user asked
// for (auto when none), since none ran.
func refused(e *env, f *decideFlags, big *lang.TooLarge) int {
	res := engines.Result{Verdict: engines.Unknown, Reason: big.Reason, Engine: f.engine}
	r, err := report.BuildLean(&model.Program{}, res)
	if err != nil {
		return e.errorf("internal error (please report): %v", err)
	}
	if err := render(reportWriter(e, f.dot), f, r); err != nil {
		return e.errorf("%v", err)
	}
	return exitUnknown
}
