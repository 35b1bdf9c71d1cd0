package predict

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// Options configure one prediction.
type Options struct {
	// Engine is "auto" (or ""), "profile", or the name of a registered
	// engine that decides programs ("global", "brute").
	Engine string
	// Check carries SPEC §4's switches and limits (--lock-edges,
	// --ignore-sync, --max-states, …).
	Check engines.Options
	// TempDir holds the spool ("" is the system's temporary directory).
	TempDir string
}

// Outcome is a prediction: the engine's result, with its witness over the
// projection program (DropSync'd under --ignore-sync), and Program, the
// projection cut to the prefixes the witness uses (every thread, variable
// and lock name; the report is built from it).
type Outcome struct {
	Result  engines.Result
	Program *model.Program
	// Sync reports lock, fork or join events in the trace.
	Sync bool
}

// UsageError is a request the trace cannot satisfy (exit 2), such as
// --engine profile on a trace with locks.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// optimistic is the note of an answer given with synchronisation dropped.
const optimistic = "optimistic: --ignore-sync dropped lock, fork and join events; a schedule that respects them may not produce this run"

// Predict decides whether some reordering of the trace's per-thread
// projections (SPEC §3) is not conflict-serializable. The trace is read
// once, into a spool on disk; without locks, fork and join (or with
// IgnoreSync) the streaming profile check decides it (Lemma 3 over
// first/last transactions, memory O(threads × variables)); with them the
// reduced projection program goes to the lock-aware engine.
func Predict(ctx context.Context, r *trace.Reader, o Options) (*Outcome, error) {
	start := time.Now()
	sp, err := newSpool(o.TempDir)
	if err != nil {
		return nil, err
	}
	defer sp.Close()
	s, err := collect(ctx, r, sp)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return &Outcome{Result: engines.Result{Verdict: engines.Unknown, Engine: o.Engine,
				Reason: "deadline reached while reading the trace (--timeout)"}}, nil
		}
		return nil, err
	}
	p := &predictor{ctx: ctx, s: s, u: s.users(), sp: sp, o: o}
	out, err := p.decide()
	if err != nil {
		return nil, err
	}
	out.Sync = s.sync
	out.Result.Stats.Events = s.events
	out.Result.Stats.Millis = time.Since(start).Milliseconds()
	if out.Program == nil {
		out.Program = s.program(make([]*autoBuilder, len(s.threads)), s.vars, s.locks)
	}
	return out, nil
}

// predictor is one prediction after the first pass.
type predictor struct {
	ctx context.Context
	s   *summary
	u   *users
	sp  *spool
	o   Options
}

// decide picks the engine: the streaming profile check unless locks, fork or
// join are in play (and not ignored), else the named or global engine.
func (p *predictor) decide() (*Outcome, error) {
	sync := p.s.sync && !p.o.Check.IgnoreSync
	switch p.o.Engine {
	case "", "auto":
		if !sync {
			return p.streaming()
		}
		return p.lockAware("global", true)
	case "profile":
		if sync {
			return nil, &UsageError{"--engine profile cannot decide a trace with locks, fork or join: " +
				"use --engine global (or auto), or --ignore-sync for the optimistic answer"}
		}
		return p.streaming()
	}
	return p.lockAware(p.o.Engine, false)
}

// streaming is the profile engine over the spool.
func (p *predictor) streaming() (*Outcome, error) {
	c := newChainer(p.ctx, p.s, p.o.Check.MaxStates)
	res := engines.Result{Engine: "profile", Verdict: engines.Serializable}
	pr, found, err := c.scan(p.sp, p.u)
	res.Stats.States = c.states
	switch {
	case err != nil:
		return nil, err
	case c.stop != "":
		res.Verdict, res.Reason = engines.Unknown, c.stop
		return &Outcome{Result: res}, nil
	case !found:
		return &Outcome{Result: res}, nil
	}
	hops, ok := c.chainTo(pr.i, pr.a, pr.b)
	if !ok {
		return nil, fmt.Errorf("predict: internal error: no chain from %d to %d in thread %d", pr.a, pr.b, pr.i)
	}
	ls, err := c.links(pr, hops)
	if err != nil {
		return nil, err
	}
	pl, err := c.chainPlan(p.sp, pr, ls)
	if err != nil {
		return nil, err
	}
	return p.violation(res, pl)
}

// violation materialises a plan into the outcome's witness.
func (p *predictor) violation(res engines.Result, pl plan) (*Outcome, error) {
	m, err := p.s.materialise(p.sp, pl, p.o.Check.IgnoreSync, p.o.Check.LockEdges)
	if err != nil {
		return nil, err
	}
	res.Verdict, res.Witness = engines.Violation, m.w
	if p.o.Check.IgnoreSync && p.s.sync {
		res.Reason = optimistic
	}
	return &Outcome{Result: res, Program: m.prefix}, nil
}

// lockAware runs a program engine on the reduced projection. Without lock
// edges the global engine first asks the streaming check with the
// synchronisation dropped: no violation there means none with it (dropping
// locks, fork and join only adds runs and, without lock edges, no conflict).
// With observed (--engine auto), the observed order is tried next.
func (p *predictor) lockAware(name string, observed bool) (*Outcome, error) {
	eng, err := engines.Lookup(name)
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	prefiltered := name == "global" && !p.o.Check.LockEdges
	if prefiltered {
		c := newChainer(p.ctx, p.s, p.o.Check.MaxStates)
		if _, found, err := c.scan(p.sp, p.u); err != nil {
			return nil, err
		} else if !found && c.stop == "" {
			res := engines.Result{Engine: "global", Verdict: engines.Serializable}
			res.Stats.States = c.states
			return &Outcome{Result: res}, nil
		}
	}
	if observed {
		if out, ok, err := p.observed(); err != nil || ok {
			return out, err
		}
	}
	rd, err := p.s.reduce(p.sp, p.u, p.o.Check.LockEdges, p.o.Check.IgnoreSync)
	if err != nil {
		return nil, err
	}
	opts := p.o.Check
	opts.IgnoreSync = false // already dropped
	if err := eng.Supports(rd.p, opts); err != nil {
		return nil, &UsageError{fmt.Sprintf("--engine %s: %v", name, err)}
	}
	check := eng.Check
	if prefiltered {
		check = engines.GlobalNoPrefilter
	}
	res, err := check(p.ctx, rd.p, opts)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return &Outcome{Result: engines.Result{Engine: name, Verdict: engines.Unknown, Reason: "deadline reached (--timeout)"}}, nil
		}
		return nil, fmt.Errorf("engine %s failed: %w", name, err)
	}
	if res.Engine == "" {
		res.Engine = name
	}
	if res.Verdict != engines.Violation || res.Witness == nil {
		res.Witness = nil
		return &Outcome{Result: res}, nil
	}
	pl, err := rd.expand(res.Witness)
	if err != nil {
		return nil, err
	}
	return p.violation(res, pl)
}
