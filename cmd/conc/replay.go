package main

import (
	"errors"
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/verify"
)

// The witness gate (docs/spec.md §5, §6): package verify, which shares no
// code with the engines, stands between every engine and the user. A
// violation is shown only after its witness has replayed against the
// program the engine checked; one that does not replay is the engine's bug,
// reported as an internal error (exit 2), never shown as a violation.

// replays checks res's witness, if res is a violation, against p (the
// program the engine was given: DropSync'd under --ignore-sync) in the
// conflict relation opts asks for.
func replays(p *model.Program, opts engines.Options, res engines.Result) error {
	if res.Verdict != engines.Violation {
		return nil
	}
	w := res.Witness
	switch {
	case w == nil:
		return errors.New("the violation has no witness")
	case w.LockEdges != opts.LockEdges:
		return fmt.Errorf("the witness is stated with lock edges %v, but --lock-edges is %v", w.LockEdges, opts.LockEdges)
	}
	return verify.Witness(p, w)
}

// unreplayable reports engine's witness that verify rejected (why).
func unreplayable(e *env, engine string, why error) int {
	return e.errorf("internal error (please report): %s's witness does not replay: %v", engine, why)
}
