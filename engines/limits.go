package engines

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/model"
)

// Within is the context a search runs under: it ends after d (under
// parent; nil: none) or, with cause *budget.Exceeded, when the heap
// reaches the memory budget of limit bytes (0: the default). Engines poll
// the heap as they search, but some passes (profile extraction,
// saturation, building tables) count no states: the watch is their
// backstop. stop ends both.
func Within(parent context.Context, d time.Duration, limit int64) (ctx context.Context, stop func()) {
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithTimeout(parent, d)
	ctx, unwatch := budget.Watch(ctx, limit)
	return ctx, func() { unwatch(); cancel() }
}

// Settle is the answer a search gave under ctx (from Within) once the
// limits are applied: the memory budget's (overBudget); for a search the
// deadline ended, in error or unknown, unknown with timeoutReason, one
// wording naming the budget and the flag. Other errors are returned as
// they are.
func Settle(ctx context.Context, timeoutReason string, res Result, err error) (Result, error) {
	if r, ok := overBudget(ctx, res, err); ok {
		return r, nil
	}
	if err != nil && errors.Is(err, context.DeadlineExceeded) {
		return Result{Verdict: Unknown, Stats: res.Stats, Reason: timeoutReason, Limit: Deadline}, nil
	}
	if err != nil {
		return res, err
	}
	if res.Verdict == Unknown && errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		res.Reason, res.Limit = timeoutReason, Deadline
	}
	return res, nil
}

// overBudget is the answer when the watch ended the engine's context: a
// verdict the engine reached stands, and so does an unknown whose reason
// names the memory budget already (the engine's own poll, whose reason
// counts its states); an engine that answered unknown for the context's
// end or another limit, failed, or was abandoned (err is the context's
// cause) is unknown with the budget's reason. ok reports that the watch
// decided.
func overBudget(ctx context.Context, res Result, err error) (Result, bool) {
	var ex *budget.Exceeded
	switch {
	case !errors.As(context.Cause(ctx), &ex):
		return res, false
	case err == nil && (res.Verdict != Unknown || res.Limit == MemoryBudget):
		return res, false
	}
	return Result{Verdict: Unknown, Reason: ex.Error(), Limit: MemoryBudget, Engine: res.Engine, Stats: res.Stats}, true
}

// CheckWithin runs e on p under ctx (from Within) and settles its answer
// (Settle). An engine that has not answered grace after ctx ended is
// abandoned; a panic is the engine's failure. The result names the engine
// and its time when the engine left them out.
func (e *Engine) CheckWithin(ctx context.Context, p *model.Program, opts Options, grace time.Duration, timeoutReason string) (Result, error) {
	start := time.Now()
	res, err := e.answerWithin(ctx, p, opts, grace)
	res, err = Settle(ctx, timeoutReason, res, err)
	if err != nil {
		return res, err
	}
	if res.Engine == "" {
		res.Engine = e.Name
	}
	if res.Stats.Millis == 0 {
		res.Stats.Millis = time.Since(start).Milliseconds()
	}
	return res, nil
}

// answerWithin is e's answer, or the context's cause when e has not
// answered grace after ctx ended.
func (e *Engine) answerWithin(ctx context.Context, p *model.Program, opts Options, grace time.Duration) (Result, error) {
	type answer struct {
		res Result
		err error
	}
	done := make(chan answer, 1) // buffered: an overrunning engine never blocks
	go func() {
		// A panic here would bypass the command's recover: it is an
		// engine bug, reported as the engine's failure.
		defer func() {
			if r := recover(); r != nil {
				done <- answer{err: fmt.Errorf("panic: %v", r)}
			}
		}()
		res, err := e.Check(ctx, p, opts)
		done <- answer{res, err}
	}()
	select {
	case a := <-done:
		return a.res, a.err
	case <-ctx.Done():
	}
	// The deadline or the memory watch ended the engine's context: an
	// engine that polls it stops within its check interval with its
	// counts, which the answer keeps; one that does not is abandoned
	// (never the zero Result, which reads serializable).
	select {
	case a := <-done:
		return a.res, a.err
	case <-time.After(grace):
		return Result{}, context.Cause(ctx)
	}
}
