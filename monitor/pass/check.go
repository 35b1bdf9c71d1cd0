// Package pass is the one streaming pass of `conc monitor` over a trace
// (docs/traces.md): it reads the trace once, in batches parsed on their
// own goroutine, and runs over them the conflict graph (package monitor)
// and, on a goroutine of its own and only once it must, the atomicity
// tracker (package monitor/atomicity), after the --not-atomic filter.
package pass

import (
	"context"
	"io"
	"time"

	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/monitor/atomicity"
	"github.com/conc-dev/conc/trace"
)

// Options configure Check: the conflict graph's, and the pass's own.
type Options struct {
	monitor.TraceOptions
	// StopAtFirst ends the check at the first violating event, as RAPID does.
	StopAtFirst bool
	// Blame also decides, for every transaction, whether it is broken by
	// itself (package atomicity), into Result.Broken.
	Blame bool
	// OnBroken and MaxBroken are atomicity.Options' (with Blame).
	OnBroken  func(*atomicity.Broken)
	MaxBroken int
	// NotAtomic, if set, names the begins of blocks that are not
	// transactions (--not-atomic): their begin and end are dropped, and
	// their events count as unary ones (or belong to the transactions
	// nested inside them). Check calls it where the reader runs, so it
	// may read the reader's tables.
	NotAtomic func(begin *trace.Event) bool
}

// Result is the pass's answer: the conflict graph's, and what only the
// pass knows.
type Result struct {
	monitor.TraceResult
	Stopped string   // why the check ended early (context), "" if it read the whole trace
	Threads []string // thread names, indexed by Thread ids
	// Broken are the transactions broken by themselves (with Blame), by
	// begin line, and BrokenCount counts them (Broken may be capped).
	Broken      []atomicity.Broken
	BrokenCount int64
	// BrokenStopped, when not "", says why the broken transactions were
	// not decided (the tracker's work budget); Broken and BrokenCount are
	// then empty, and what OnBroken was handed is not the answer.
	BrokenStopped string
}

// Check runs the pass over r to its end (or the first violation with
// StopAtFirst). A bad line is an error; the context's end stops the check
// with Stopped set, not an error.
func Check(ctx context.Context, r *trace.Reader, opts Options) (Result, error) {
	start := time.Now()
	r.Within(ctx) // the reader's own extra reading keeps the deadline too
	p := newPasses(monitor.NewTraceMonitor(opts.TraceOptions), opts)
	if !opts.StopAtFirst {
		stopped, err := p.stepAhead(ctx, r)
		if err != nil {
			p.finish()
			return Result{}, err
		}
		return p.result(r, stopped, start), nil
	}
	stopped, err := p.stepToFirst(ctx, r)
	if err != nil {
		p.finish()
		return Result{}, err
	}
	return p.result(r, stopped, start), nil
}

// stepToFirst is Check's loop with StopAtFirst: it reads no further than
// the batch it stops in, on the caller's goroutine. It returns why the
// check stopped early ("" if it read the whole trace or found a cycle).
func (p *passes) stepToFirst(ctx context.Context, r *trace.Reader) (string, error) {
	evs := make([]trace.Event, 4096)
	read := p.read(r)
	for {
		n, err := read(evs)
		if p.stepFirst(evs[:n]); p.m.First() > 0 {
			err = io.EOF
		}
		if err == io.EOF {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		if ctx.Err() != nil {
			return context.Cause(ctx).Error(), nil
		}
	}
}

// result finishes the check of r begun at start.
func (p *passes) result(r *trace.Reader, stopped string, start time.Time) Result {
	res := Result{TraceResult: p.m.Finish(), Stopped: stopped, Threads: r.Threads().Names()}
	if b := p.finish(); b != nil {
		res.Broken, res.BrokenCount, res.BrokenStopped = b.Broken, b.Count, b.Stopped
	}
	res.Stats.Millis = time.Since(start).Milliseconds()
	return res
}
