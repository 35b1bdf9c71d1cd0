package check

import (
	"context"
	"fmt"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/lang"
)

// DefaultTimeout is the time budget of a search when none is given
// (docs/spec.md §7): a search can be exponential, and no answer should be
// a hang. (A variable so that tests need not wait five minutes.)
var DefaultTimeout = 5 * time.Minute

// TimeoutGrace is how long past the end of its context (the deadline, or
// the memory budget) an engine may run before the pipeline stops waiting
// for it: engines watch the context, this is a backstop. (A variable so
// that tests need not wait a second.)
var TimeoutGrace = time.Second

// Request is one run's question: the engine ("auto" or a registered
// one), the engines' options, and the limits.
type Request struct {
	Engine  string
	Options engines.Options
	// Timeout is the time budget (0: DefaultTimeout).
	Timeout time.Duration
	// Within is the context the run's limits start from: the playground's
	// request, so that a client that goes away ends its check (nil: none).
	Within context.Context
}

// Deadline is the time budget of a search: a --timeout, or
// DefaultTimeout, under a parent context.
type Deadline struct {
	D      time.Duration
	Given  bool            // --timeout was given
	Within context.Context // the parent of the search's context (nil: none)
}

// DeadlineOf is the deadline of a --timeout value (0: not given) under
// within (nil: none).
func DeadlineOf(timeout time.Duration, within context.Context) Deadline {
	if timeout > 0 {
		return Deadline{D: timeout, Given: true, Within: within}
	}
	return Deadline{D: DefaultTimeout, Within: within}
}

// Reason is the unknown's reason when the deadline ended the search.
func (dl Deadline) Reason() string {
	if dl.Given {
		return fmt.Sprintf("timeout: no answer within %v (--timeout)", dl.D)
	}
	return fmt.Sprintf("timeout: no answer within the default time budget of %v (--timeout raises it)", dl.D)
}

// Limits is the context a search runs under: dl's deadline and the
// memory budget of limit bytes (0: the default), engines.Within.
func (dl Deadline) Limits(limit int64) (ctx context.Context, stop func()) {
	return engines.Within(dl.Within, dl.D, limit)
}

// Settle is engines.Settle with dl's reason for a search it ended.
func (dl Deadline) Settle(ctx context.Context, res engines.Result, err error) (engines.Result, error) {
	return engines.Settle(ctx, dl.Reason(), res, err)
}

// Deadline is r's deadline.
func (r *Request) Deadline() Deadline { return DeadlineOf(r.Timeout, r.Within) }

// Start starts the deadline and the memory watch of r's run before it
// compiles, so that compiling, choosing the engine and searching take
// from one budget: r.Within becomes their context, under which the
// search's own limits (Judge) end no later. stop ends them.
func (r *Request) Start() (dl Deadline, stop func()) {
	dl = r.Deadline()
	r.Within, stop = dl.Limits(r.Options.MaxMemory)
	return dl, stop
}

// CompileLimits are the limits of r's run for compiling, under the
// context Start made.
func (r *Request) CompileLimits() lang.Limits {
	return lang.Limits{Ctx: r.Within, MaxBytes: r.Options.MaxMemory, MaxStates: int64(r.Options.MaxStates)}
}
