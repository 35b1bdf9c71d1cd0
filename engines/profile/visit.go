package profile

import (
	"context"
	"math"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/model"
)

// visitSet is the memo shared by the profile engine's two deciders (the
// chain search and the paper's product): the states already explored, with
// the state limit and the deadline that end a search in Unknown.
type visitSet struct {
	done    <-chan struct{} // the context's: a closed channel ends the search
	visited map[string]struct{}
	states  int64
	limit   int64
	mem     *budget.Meter
	stop    string        // why the search gave up (limit, deadline); "" if not
	stopBy  engines.Limit // the limit stop names
	work    uint64        // steps of work between states counted by tick
	maxWork uint64        // stepsPerState per state of the limit; 0: none
}

func newVisitSet(ctx context.Context, opts engines.Options) visitSet {
	v := visitSet{done: ctx.Done(), limit: int64(opts.MaxStates), mem: budget.New(opts.MaxMemory), visited: map[string]struct{}{}}
	if v.limit > 0 {
		v.maxWork = uint64(min(v.limit, math.MaxInt64/stepsPerState)) * stepsPerState
	}
	return v
}

// stepsPerState is the work --max-states allows per state outside the
// memo: the relevance of one (class, letter) search on two transactions of
// 1,000 accesses takes millions of steps before its first state, which
// a state limit alone would not cut. It is large enough that a limit that
// lets the states through lets their work through too (the tests' limits
// of 1,000 states answer as a limit on the states alone would).
const stepsPerState = 1 << 16

const stateLimit = "state limit reached (--max-states)"

// deadlineReason is the reason when the search's context ended (the CLI
// words the deadline and the memory watch its own way: engines.Settle).
const deadlineReason = "deadline reached (--timeout)"

// halt records that the limit l ended the search, for the reason why.
func (v *visitSet) halt(l engines.Limit, why string) { v.stop, v.stopBy = why, l }

// admit records the state key and reports whether it is new. It also
// enforces the state limit and, every 4096 states, the deadline and the
// memory budget; each sets stop and refuses the state.
func (v *visitSet) admit(key []byte) bool {
	if _, ok := v.visited[string(key)]; ok {
		return false
	}
	v.visited[string(key)] = struct{}{}
	v.states++
	if v.limit > 0 && v.states > v.limit {
		v.halt(engines.StateBudget, stateLimit)
		return false
	}
	if v.states&4095 == 0 {
		return v.poll(true)
	}
	return true
}

// Work between states. Forward checking, the relevance fixpoint and the
// reachability searches run long between two admitted states (on gen np
// --clauses 60 the 4096 states between two polls took 11 s, on two
// transactions of 1,000 accesses the relevance of one letter 40 s), so each
// counts its steps (one letter taken from a worklist, or one letter of a
// fixpoint round) with tick, which checks the deadline (and the work
// --max-states allows) every 256 steps and the memory budget (a heap read,
// about 0.7 µs) every 4,096: the masks below.
const (
	tickDeadline = 1<<8 - 1
	tickMemory   = 1<<12 - 1
)

// tick counts one step of work and reports whether the search may go on;
// it is false, with stop set, when a budget ended it. (Between polls it is
// true: a search that stopped unwinds without ticking. Kept small enough
// to inline: it runs once per letter of the search's inner loops.)
func (v *visitSet) tick() bool {
	v.work++
	if v.work&tickDeadline != 0 {
		return true
	}
	return v.poll(v.work&tickMemory == 0)
}

// pollHook, if set (by tests), is called at each poll: a test cancels its
// context from it to end a search that has started.
var pollHook func()

// poll checks the deadline (a non-blocking receive from the context's done
// channel) and, if memory, the memory budget; it sets stop when one ended
// the search and reports whether it may go on.
func (v *visitSet) poll(memory bool) bool {
	if pollHook != nil {
		pollHook()
	}
	if v.stop != "" {
		return false
	}
	if v.maxWork > 0 && v.work > v.maxWork {
		v.halt(engines.StateBudget, stateLimit)
		return false
	}
	select {
	case <-v.done:
		v.halt(engines.Deadline, deadlineReason)
		return false
	default:
	}
	if memory && v.mem.Over() {
		v.halt(engines.MemoryBudget, v.mem.Reached(v.states))
		return false
	}
	return true
}

// settle records one search's outcome in res: the states so far, Unknown when
// the search gave up, Violation with the witness when a chain was found.
// done reports that the decider has its answer.
func (v *visitSet) settle(res *engines.Result, found bool, witness func() (*model.Witness, error)) (done bool, err error) {
	res.Stats.States = v.states
	switch {
	case v.stop != "":
		res.Verdict, res.Reason, res.Limit = engines.Unknown, v.stop, v.stopBy
		return true, nil
	case found:
		w, err := witness()
		if err != nil {
			return true, err
		}
		res.Verdict, res.Witness = engines.Violation, w
		return true, nil
	}
	return false, nil
}
