package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/conc-dev/conc/check"
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/cliflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/serve"
)

func init() {
	register(&command{
		name:    "serve",
		args:    "[flags]",
		summary: "the playground: check programs and run the lab in a browser",
		help:    "Serves the playground page and its API (docs/playground.md; the API: docs/spec.md §4) until interrupted.",
		run:     runServe,
	})
}

// serveFlags are conc serve's flags.
type serveFlags struct {
	addr      string
	public    bool
	timeout   time.Duration
	maxChecks int
	maxMemory int64
}

func (f *serveFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.addr, "addr", serve.DefaultAddr, "listen on `HOST:PORT`")
	fs.BoolVar(&f.public, "public", false, "allow an --addr that is not loopback (the playground has no authentication)")
	cliflag.Timeout(fs, &f.timeout, fmt.Sprintf("the longest `DURATION` one check may take, and its default (default %v)", serve.DefaultMaxTimeout))
	cliflag.Count(fs, "max-checks", "run at most `N` checks and lab sweeps at a time; the others wait, then get 503 (default: the number of CPUs)", &f.maxChecks, nil)
	memoryVar(fs, &f.maxMemory)
}

// runServe is conc serve: the playground on --addr, until interrupted.
func runServe(e *env, args []string) int {
	var f serveFlags
	if code, done := parseNoArgs(e, "serve", f.register, args); done {
		return code
	}
	loop, err := serve.Loopback(f.addr)
	if err != nil {
		return e.usagef("%v", err)
	}
	if !loop && !f.public {
		return e.usagef("--addr %s is reachable from other machines, and the playground has no authentication; "+
			"pass --public to serve it anyway", f.addr)
	}
	if !loop {
		fmt.Fprintf(e.stderr, "conc: serve: WARNING: serving on %s, reachable from other machines (--public)\n", f.addr)
	}
	defer withMemoryLimit(f.maxMemory)() // the budget is the whole server's: checks share the heap
	srv := serve.NewServer(f.addr, playConfig(f))
	err = serve.Serve(context.Background(), srv, func(addr string) {
		fmt.Fprintf(e.stderr, "conc: serve: the playground is at http://%s/\n", addr)
	})
	return e.errorf("serve: %v", err)
}

// playConfig hands the playground conc check's pipeline.
func playConfig(f serveFlags) serve.Config {
	return serve.Config{
		Check:      playCheck(f.maxMemory),
		Explain:    playExplain(f.maxMemory),
		MaxTimeout: f.timeout,
		MaxChecks:  f.maxChecks,
	}
}

// playRequest is conc check --format json's request for q's parameters,
// under the request's context.
func playRequest(ctx context.Context, q serve.Query, maxMemory int64) (check.Request, error) {
	if q.Engine != "auto" && !check.Registered(q.Engine) {
		return check.Request{}, &serve.UsageError{Msg: check.UnknownEngine(q.Engine).Error()}
	}
	opts := engines.Options{LockEdges: q.LockEdges, IgnoreSync: q.IgnoreSync, MaxMemory: maxMemory}
	return check.Request{Engine: q.Engine, Options: opts, Timeout: q.Timeout, Within: ctx}, nil
}

// playCompile is the request of q, its limits started (stop ends them),
// the program of src and the engine for it, as conc check takes them: a
// usage error is a serve.UsageError, a static error the lang.ErrorList
// (400 with positions), and a program the limits refused or stopped
// comes back as its unknown answer. Compiling takes from the request's
// time and memory budget, as the search does.
func playCompile(ctx context.Context, src []byte, q serve.Query, maxMemory int64) (req check.Request, p *model.Program, eng *engines.Engine, unknown *engines.Result, stop func(), err error) {
	stop = func() {}
	if req, err = playRequest(ctx, q, maxMemory); err != nil {
		return req, nil, nil, nil, stop, err
	}
	dl, stop := req.Start()
	p, unknown, err = check.Compile(q.Name, src, req.CompileLimits(), dl)
	if unknown != nil || err != nil {
		return req, nil, nil, unknown, stop, err
	}
	p, eng, err = check.Prepare(req, p)
	if err != nil {
		return req, nil, nil, nil, stop, &serve.UsageError{Msg: err.Error()}
	}
	return req, p, eng, nil, stop, nil
}

// playCheck is POST /api/check: conc check's pipeline (package check) on
// the body.
func playCheck(maxMemory int64) serve.Checker {
	return func(ctx context.Context, src []byte, q serve.Query) (*report.Report, error) {
		req, p, eng, unknown, stop, err := playCompile(ctx, src, q, maxMemory)
		defer stop()
		if unknown != nil {
			return check.Refused(q.Engine, *unknown)
		}
		if err != nil {
			return nil, abandoned(ctx, err)
		}
		r, _, err := check.Judge(req, eng, p)
		if err := abandoned(ctx, err); err != nil {
			return nil, err
		}
		return r, nil
	}
}

// abandoned is the error of a request whose client went away (ctx ended):
// the work stopped with it, and its unknown would read as a timeout.
// Otherwise it is err.
func abandoned(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("the check was abandoned: the client went away (%v)", ctx.Err())
	}
	return err
}

// playExplain is POST /api/explain: the engine conc check would take and
// why, and conc profiles' text (profiles.go) under the same budgets.
func playExplain(maxMemory int64) serve.Explainer {
	return func(ctx context.Context, src []byte, q serve.Query) (*serve.Explanation, error) {
		req, p, eng, unknown, stop, err := playCompile(ctx, src, q, maxMemory)
		defer stop()
		if unknown != nil {
			return &serve.Explanation{Why: "unknown: " + unknown.Reason, Cut: true}, nil
		}
		if err != nil {
			return nil, abandoned(ctx, err)
		}
		profiles, cut := playProfiles(req.Within, p, q.Timeout, maxMemory)
		return &serve.Explanation{Engine: eng.Name, Why: check.Why(q.Engine, p, eng, req.Options),
			Profiles: profiles, Cut: cut}, nil
	}
}

// playProfiles is conc profiles' text for p, or its unknown line (cut:
// a limit, or the request's end, stopped the extraction).
func playProfiles(ctx context.Context, p *model.Program, timeout time.Duration, maxMemory int64) (text string, cut bool) {
	out, reason := extractWithin(p, profilesFlags{format: "text", timeout: timeout, maxMemory: maxMemory, within: ctx})
	switch {
	case reason != "":
		return "unknown: " + reason, true
	case out.err != nil:
		return "profiles: " + out.err.Error(), false
	}
	return out.text.String(), false
}
