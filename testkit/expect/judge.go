package expect

import (
	"fmt"
	"strings"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all" // Decides reads the engines' declarations
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/verify"
)

// Bounded is the name of the engine that enumerates runs up to a bound
// (docs/spec.md §4's --max-depth) and so cannot prove unbounded programs
// serializable.
const Bounded = "brute"

// boundWords are the words an unknown answer's reason must contain one of:
// it has to say which bound or limit stopped the search.
var boundWords = []string{"depth", "bound", "limit", "stack", "states", "undecidable"}

// Decides reports whether engine is a decision procedure for p (after any
// --ignore-sync), as the engine declares (engines.Decides): brute only for
// finitely many finite runs, profile for every lock-free class, global for
// finite-state programs with locks. An engine the registry does not know
// must decide everything but recursive threads with locks (undecidable,
// Section 4).
func Decides(p *model.Program, engine string) bool {
	if e, err := engines.Lookup(engine); err == nil {
		return e.DecidesProgram(p)
	}
	return p.Class() != model.Recursive || !p.HasSync()
}

// UnknownAllowed reports whether engine may answer unknown on p under opts
// where a decision procedure would say serializable, and why. Unknown is
// never acceptable where a violation is wanted: every engine must find a
// violation that lies within its bounds, and the examples keep them small.
func UnknownAllowed(p *model.Program, engine string, opts engines.Options) (bool, string) {
	if opts.MaxStates > 0 {
		return true, "a state limit is set"
	}
	if e, err := engines.Lookup(engine); err == nil && opts.MaxDepth > 0 && e.Decides.DepthBound {
		return true, "--max-depth bounds " + engine + "'s search"
	}
	if opts.IgnoreSync {
		p = model.DropSync(p)
	}
	if Decides(p, engine) {
		return false, ""
	}
	why := engine + " searches " + p.Class().String() + " programs boundedly"
	if p.Class() == model.Recursive && p.HasSync() {
		why = "recursive threads with locks are undecidable (bounded search)"
	}
	return true, why
}

// Judge checks engine's answer res for p against w. A violation's witness
// must be present, stated in the conflict relation w asks for, and pass
// verify.Witness against the program the engine checked (without its
// synchronisation under --ignore-sync). An unknown answer passes only where
// UnknownAllowed says so, w wants serializable, and the reason names the
// bound.
func Judge(p *model.Program, engine string, w Want, res engines.Result) error {
	switch {
	case res.Verdict == w.Verdict && res.Verdict == engines.Violation:
		return judgeWitness(p, w, res.Witness)
	case res.Verdict == w.Verdict:
		return nil
	case res.Verdict == engines.Unknown && w.Verdict == engines.Serializable:
		ok, why := UnknownAllowed(p, engine, w.Options)
		if !ok {
			return fmt.Errorf("%s: want %s, got unknown: %s", engine, w, res.Reason)
		}
		if !namesBound(res.Reason) {
			return fmt.Errorf("%s: unknown (allowed: %s) but the reason %q names no bound", engine, why, res.Reason)
		}
		return nil
	}
	return fmt.Errorf("%s: want %s, got %s %s", engine, w, res.Verdict, res.Reason)
}

func judgeWitness(p *model.Program, w Want, wit *model.Witness) error {
	if wit == nil {
		return fmt.Errorf("want %s: violation without a witness", w)
	}
	if wit.LockEdges != w.Options.LockEdges {
		return fmt.Errorf("want %s: witness stated with LockEdges=%v", w, wit.LockEdges)
	}
	if w.Options.IgnoreSync {
		p = model.DropSync(p)
	}
	if err := verify.Witness(p, wit); err != nil {
		return fmt.Errorf("want %s: bad witness: %v", w, err)
	}
	return nil
}

func namesBound(reason string) bool {
	r := strings.ToLower(reason)
	for _, b := range boundWords {
		if strings.Contains(r, b) {
			return true
		}
	}
	return false
}
