package profile

import (
	"context"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/model"
)

// visitSet is the memo shared by the profile engine's two deciders (the
// chain search and the paper's product): the states already explored, with
// the state limit and the deadline that end a search in Unknown.
type visitSet struct {
	ctx     context.Context
	visited map[string]struct{}
	states  int64
	limit   int64
	mem     *budget.Meter
	stop    string // why the search gave up (limit, deadline); "" if not
}

func newVisitSet(ctx context.Context, opts engines.Options) visitSet {
	return visitSet{ctx: ctx, limit: int64(opts.MaxStates), mem: budget.New(opts.MaxMemory), visited: map[string]struct{}{}}
}

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
		v.stop = "state limit reached (--max-states)"
		return false
	}
	if v.states&4095 == 0 && v.ctx.Err() != nil {
		v.stop = "deadline reached (--timeout)"
		return false
	}
	if v.states&4095 == 0 && v.mem.Over() {
		v.stop = v.mem.Reached(v.states)
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
		res.Verdict, res.Reason = engines.Unknown, v.stop
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
