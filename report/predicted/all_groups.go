package predicted

import (
	"context"
	"errors"
	"fmt"

	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/all"
)

// GroupWitness is group k's witness as --witness-out writes it, k
// numbered as the text and the JSON number the groups: from 1, the k-th
// group whose witness replays, in order of first line. Past the last
// such group it is nil, with shown, how many there are.
func GroupWitness(a *all.Outcome, k int) (out *predict.Outcome, shown int, err error) {
	for g := range a.Groups {
		out, err := a.Witness(g)
		if err != nil {
			return nil, shown, err
		}
		if out == nil {
			continue
		}
		if shown++; shown == k {
			return out, shown, nil
		}
	}
	return nil, shown, nil
}

// eachWitness builds the groups' witnesses in order, until the deadline
// (stopBuilding), and calls f with each that replays (a group whose
// witness does not is skipped, and counted by the outcome) until f says
// stop; it returns the index of the first group not looked at.
func eachWitness(ctx context.Context, a *all.Outcome, f func(k int, out *predict.Outcome) (bool, error)) (int, error) {
	for k := range a.Groups {
		if stopBuilding(ctx, a, k) {
			return k, nil
		}
		out, err := a.Witness(k)
		if err != nil {
			return k, err
		}
		if out == nil {
			continue
		}
		if more, err := f(k, out); err != nil || !more {
			return k + 1, err
		}
	}
	return len(a.Groups), nil
}

// stopBuilding reports that the deadline (--timeout) or the memory budget came
// before group k's witness was built: the groups from k on are not shown,
// and Incomplete says so. Building a witness reads the spool once or
// twice, so a thousand groups of a large trace take a while (docs/predict.md).
func stopBuilding(ctx context.Context, a *all.Outcome, k int) bool {
	if ctx.Err() == nil || a.Built(k) {
		return false
	}
	if a.Incomplete != "" {
		a.Incomplete += "; "
	}
	a.Incomplete += fmt.Sprintf("%s before the witnesses of the last %s were built (%s)", cutBy(ctx),
		count(len(a.Groups)-k, "group"), cutFlag(ctx))
	return true
}

// cutBy names what ended ctx (the command's limits): the memory budget,
// whose watch cancels it too, or the deadline.
func cutBy(ctx context.Context) string {
	var ex *budget.Exceeded
	if errors.As(context.Cause(ctx), &ex) {
		return "the memory budget of " + budget.Format(ex.Limit) + " was reached"
	}
	return "the deadline came"
}

// cutFlag is the flag that raises what ended ctx.
func cutFlag(ctx context.Context) string {
	var ex *budget.Exceeded
	if errors.As(context.Cause(ctx), &ex) {
		return "--max-memory raises it"
	}
	return "--timeout"
}

// count is "1 group", "2 groups".
func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
