package observed

import (
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// The observed prefix up to the first violation can be most of a long trace
// (crypt's is 1.5·10⁶ events), but the cycle needs far less: the events
// that happen before one of its events, in the order program order, release
// → acquire of a lock, fork → the child's events and the child's last event
// → join make (the synchronisation order of the observed run). Restricted to
// that down-closed set the observed order is still a run: each thread runs a
// prefix of its projection; an included acquire brings the release before
// it, so the included operations on a lock are a prefix of the observed ones
// on it; a fork precedes its child's events and a joined thread's whole
// observed part precedes the join. The order of any two included events, and
// so every conflict and transaction of the cycle, is as observed. The trimmed
// witness is verified like any other before it is used.

// Trim cuts pl (the observed prefix up to line first) to the events that
// happen before an event of its cycle. Its vector clocks take threads²
// words: predict decides whether to pay them, and keeps the whole prefix
// otherwise (a run too).
func Trim(in Input, pl proj.Plan, first int64) (proj.Plan, error) {
	need, ok, err := hb.Cut(in.Summary, in.Spool, pl.Cycle, first)
	if err != nil || !ok {
		return pl, err // a cycle event not in the prefix: keep the whole prefix
	}
	cut := make([]int64, len(need))
	for t := range cut {
		cut[t] = min(pl.Observed.Cut[t], need[t])
	}
	return proj.Plan{Cycle: pl.Cycle, Observed: &proj.ObservedCut{Cut: cut}}, nil
}
