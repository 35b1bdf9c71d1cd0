package lang

import (
	gocontext "context" // the package has its own context (context.go)
	"fmt"

	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/model"
)

// Limits are the budgets of the run a compile is part of: a few lines of
// .conc can describe tens of millions of states, seconds of building and
// gigabytes, so compiling answers to the run's deadline and budgets as a
// search does.
type Limits struct {
	// Ctx stops the compile when it ends: the run's deadline, or its
	// memory watch (nil: never).
	Ctx gocontext.Context
	// MaxBytes is the memory budget (0: budget.Default()).
	MaxBytes int64
	// MaxStates bounds the states of all the automata together
	// (--max-states; 0: no bound but maxStates a thread).
	MaxStates int64
}

// Stopped is Compile's answer when the limits ended a compile already
// under way: its context ended (Cause is the context's cause), or the heap
// reached the memory budget (Cause is a *budget.Exceeded). Like TooLarge it
// is a limit of the run (unknown), not an error in the source.
type Stopped struct {
	States int64 // the states built when it stopped
	Cause  error
}

func (e *Stopped) Error() string {
	return fmt.Sprintf("compiling the program's automata stopped after %s states: %v", budget.Count(e.States), e.Cause)
}

func (e *Stopped) Unwrap() error { return e.Cause }

// pollEvery is how many states are built between two looks at the
// context and the heap: a look costs about a microsecond, building 16,384
// states about a millisecond.
const pollEvery = 1 << 14

// limiter counts the states a compile builds, across its threads, and
// stops it when a limit is reached.
type limiter struct {
	lim     Limits
	meter   *budget.Meter
	states  int64
	stopped error // a *Stopped or *TooLarge, once a limit is reached
}

func newLimiter(lim Limits) *limiter {
	if lim.Ctx == nil {
		lim.Ctx = gocontext.Background()
	}
	return &limiter{lim: lim, meter: budget.New(lim.MaxBytes)}
}

// add counts a new state and reports whether building may go on.
func (l *limiter) add() bool {
	if l.stopped != nil {
		return false
	}
	l.states++
	if m := l.lim.MaxStates; m > 0 && l.states > m {
		l.stopped = &TooLarge{States: l.states, OverStates: true, Reason: fmt.Sprintf(
			"compiling the program's automata: more than %s states (--max-states %d)", budget.Count(m), m)}
		return false
	}
	return l.states%pollEvery != 0 || l.poll()
}

// poll looks at the context and the heap, and reports whether building
// may go on.
func (l *limiter) poll() bool {
	switch {
	case l.stopped != nil:
		return false
	case l.lim.Ctx.Err() != nil:
		l.stopped = &Stopped{States: l.states, Cause: gocontext.Cause(l.lim.Ctx)}
	case l.meter.Over():
		l.stopped = &Stopped{States: l.states, Cause: &budget.Exceeded{Limit: l.meter.Limit()}}
	}
	return l.stopped == nil
}

// tick is poll every pollEvery calls, for the passes over built states
// (finish): i counts the pass's steps.
func (l *limiter) tick(i int) bool { return i%pollEvery != 0 || l.poll() }

// CompileLimited is Compile under the run's limits: a program whose
// automata would not fit the memory budget, or would have more than
// lim.MaxStates states, is refused with a *TooLarge, before anything is
// built when the size bound tells; a compile under way stops with a
// *Stopped when lim.Ctx ends or the heap reaches the budget.
func CompileLimited(filename string, src []byte, lim Limits) (*model.Program, error) {
	return compileLimited(filename, src, newLimiter(lim))
}
