package check

import (
	"errors"
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/verify"
)

// UsageError is a request no run could answer (an engine that refuses the
// program): the command line's exit 2 "usage" error, the playground's 400.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// WitnessError is a violation whose witness verify refused: the engine's
// bug, never shown as a violation (docs/spec.md §5, §6).
type WitnessError struct {
	Engine string
	Err    error
}

func (e *WitnessError) Error() string {
	return fmt.Sprintf("internal error (please report): %s's witness does not replay: %v", e.Engine, e.Err)
}

// Prepare is the program to check (without its lock, fork and join events
// under IgnoreSync) and the engine r asks for (Choose); a refusal is a
// *UsageError.
func Prepare(r Request, p *model.Program) (*model.Program, *engines.Engine, error) {
	if r.Options.IgnoreSync {
		p = model.DropSync(p)
	}
	eng, err := Choose(r.Engine, p, r.Options)
	if err != nil {
		return p, nil, &UsageError{err}
	}
	return p, eng, nil
}

// Judge runs eng on p (Prepare's) under r's limits, replays a violation's
// witness and builds the report. The limits end in Unknown, never in an
// error; an error is the engine's failure, a *WitnessError, or the
// report's internal error.
func Judge(r Request, eng *engines.Engine, p *model.Program) (*report.Report, engines.Verdict, error) {
	res, err := Run(eng, p, r.Options, r.Deadline())
	if err != nil {
		return nil, engines.Unknown, fmt.Errorf("engine %s failed: %v", eng.Name, err)
	}
	if err := Replays(p, r.Options, res); err != nil {
		return nil, engines.Unknown, &WitnessError{res.Engine, err}
	}
	if r.Options.IgnoreSync && res.Verdict == engines.Violation && res.Reason == "" {
		res.Reason = engines.OptimisticNote
	}
	rep, err := report.BuildLean(p, res)
	if err != nil {
		return nil, engines.Unknown, fmt.Errorf("internal error (please report): %v", err)
	}
	return rep, res.Verdict, nil
}

// Run runs eng under its deadline and the memory budget. The limits end
// in Unknown, never in an error (engines.Settle); an engine that has not
// answered TimeoutGrace after they ended its context is abandoned.
func Run(eng *engines.Engine, p *model.Program, opts engines.Options, dl Deadline) (engines.Result, error) {
	ctx, stop := dl.Limits(opts.MaxMemory)
	defer stop()
	return eng.CheckWithin(ctx, p, opts, TimeoutGrace, dl.Reason())
}

// Replays is the witness gate (docs/spec.md §5, §6): package verify,
// which shares no code with the engines, stands between every engine and
// the user. It checks res's witness, if res is a violation, against p
// (the program the engine was given: DropSync'd under IgnoreSync) in the
// conflict relation opts asks for.
func Replays(p *model.Program, opts engines.Options, res engines.Result) error {
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

// Refused is the report of a program the limits did not let compile
// (Compile's unknown answer): no threads, and the engine asked for (auto
// when none), since none ran.
func Refused(engine string, unknown engines.Result) (*report.Report, error) {
	unknown.Engine = engine
	return report.BuildLean(&model.Program{}, unknown)
}
