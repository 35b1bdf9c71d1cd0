package check

import (
	"context"
	"errors"
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

// Compile compiles src under lim. A program the limits refused or
// stopped comes back as its unknown answer (CompileUnknown), with no
// error: it is an answer, not bad input. Any other error is the
// compiler's (a lang.ErrorList for a static error).
func Compile(name string, src []byte, lim lang.Limits, dl Deadline) (p *model.Program, unknown *engines.Result, err error) {
	p, err = lang.CompileLimited(name, src, lim)
	if res, ok := CompileUnknown(err, dl); ok {
		return nil, &res, nil
	}
	return p, nil, err
}

// CompileUnknown is the unknown answer (its reason and limit, no engine)
// when err is a limit of the run (lang's TooLarge or Stopped), in the
// words the searches use for the same limits; ok is false for other
// errors, and for a compile stopped by its caller (a client that went
// away), which is no answer.
func CompileUnknown(err error, dl Deadline) (res engines.Result, ok bool) {
	var big *lang.TooLarge
	var stopped *lang.Stopped
	var ex *budget.Exceeded
	unknown := func(l engines.Limit, why string) (engines.Result, bool) {
		return engines.Result{Verdict: engines.Unknown, Reason: why, Limit: l}, true
	}
	switch {
	case errors.As(err, &big) && big.OverStates:
		return unknown(engines.StateBudget, big.Reason)
	case errors.As(err, &big):
		return unknown(engines.MemoryBudget, big.Reason)
	case !errors.As(err, &stopped):
		return engines.Result{}, false
	case errors.As(err, &ex):
		return unknown(engines.MemoryBudget, fmt.Sprintf("memory budget of %s reached while compiling the program's automata, after %s states (--max-memory raises it)",
			budget.Format(ex.Limit), budget.Count(stopped.States)))
	case errors.Is(err, context.DeadlineExceeded):
		return unknown(engines.Deadline, dl.Reason())
	}
	return engines.Result{}, false
}
