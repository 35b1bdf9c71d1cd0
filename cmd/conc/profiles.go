package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/conc-dev/conc/check"
	"github.com/conc-dev/conc/internal/cliflag"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/profiles"
)

func init() {
	register(&command{
		name:    "profiles",
		args:    "FILE.conc [flags]",
		summary: "the profiles of each thread (the paper's Def. 4)",
		help:    programHelp,
		run:     runProfiles,
	})
}

// profilesFlags are conc profiles' flags: the format and the budgets.
type profilesFlags struct {
	format    string
	timeout   time.Duration
	maxMemory int64
	within    context.Context // as decideFlags' (nil: none)
}

// runProfiles is conc profiles: compile a .conc file and print each thread's
// profiles (Definition 4), one group per automaton (thread W[n] shares one).
// It decides nothing; it shows what the profile engine combines.
func runProfiles(e *env, args []string) int {
	var f profilesFlags
	files, code, done := parseCommand(e, "profiles", func(set *flag.FlagSet) {
		set.StringVar(&f.format, "format", "text", "output `format`: text or json")
		cliflag.Timeout(set, &f.timeout, decideTimeoutHelp)
		memoryVar(set, &f.maxMemory)
	}, args)
	if done {
		return code
	}
	if len(files) != 1 {
		return e.errorf("profiles: want one FILE.conc argument, got %d; run 'conc profiles --help'", len(files))
	}
	if f.format != "text" && f.format != "json" {
		return e.badFlag("format", f.format, "want text or json")
	}
	defer withMemoryLimit(f.maxMemory)()
	dl := check.DeadlineOf(f.timeout, f.within)
	ctx, stop := withinLimits(dl, f.maxMemory) // compiling takes from the run's budgets
	defer stop()
	f.within = ctx
	p, unknown, code := compileInput(e, files[0], lang.Limits{Ctx: ctx, MaxBytes: f.maxMemory}, dl, f.format == "json")
	if unknown != nil {
		fmt.Fprintf(e.stdout, "unknown: %s\n", unknown.Reason)
		return code // exit 3: a limit, not bad input
	}
	if p == nil {
		return code
	}
	out, reason := extractWithin(p, f)
	if reason != "" {
		fmt.Fprintf(e.stdout, "unknown: %s\n", reason)
		return exitUnknown
	}
	if out.err != nil {
		return e.errorf("profiles: %v", out.err)
	}
	_, err := e.stdout.Write(out.text.Bytes())
	if err != nil {
		return e.errorf("profiles: %v", err)
	}
	return 0
}

// profilesOut is what extraction wrote, or why it failed.
type profilesOut struct {
	text bytes.Buffer
	err  error
}

// extractWithin extracts the profiles into a buffer under the time and
// memory budgets (extraction counts no states, so both are watched from
// outside and an extraction over either is abandoned); reason is the
// unknown's reason, "" when extraction finished. The extraction watches
// the same context, so an abandoned one stops too (within a few hundred
// steps) rather than running on in the background (conc serve's explain).
func extractWithin(prog *model.Program, f profilesFlags) (*profilesOut, string) {
	dl := check.DeadlineOf(f.timeout, f.within)
	ctx, stop := withinLimits(dl, f.maxMemory)
	defer stop()
	done := make(chan *profilesOut, 1) // buffered: an abandoned extraction never blocks
	go func() {
		out := &profilesOut{}
		out.err = profiles.Write(ctx, &out.text, prog, f.format)
		done <- out
	}()
	select {
	case out := <-done:
		return out, ""
	case <-ctx.Done(): // the deadline, or the watch with the budget as cause
		if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			return nil, dl.Reason()
		}
		return nil, context.Cause(ctx).Error()
	}
}
