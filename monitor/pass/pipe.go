package pass

import (
	"context"
	"io"

	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/monitor/atomicity"
	"github.com/conc-dev/conc/trace"
)

// passes are the passes Check makes over each batch of the trace:
// the --not-atomic filter, the conflict-graph monitor and, with Blame,
// the atomicity tracker on its own goroutine.
type passes struct {
	m      *monitor.TraceMonitor
	filter *trace.BlockFilter
	blame  *blamer
}

func newPasses(m *monitor.TraceMonitor, opts Options) *passes {
	p := &passes{m: m}
	if opts.NotAtomic != nil {
		p.filter = trace.NewBlockFilter(opts.NotAtomic)
	}
	if opts.Blame {
		p.blame = newBlamer(atomicity.Options{LockEdges: opts.LockEdges, OnBroken: opts.OnBroken, MaxBroken: opts.MaxBroken})
	}
	return p
}

// read is r.Read through the --not-atomic filter. It runs where the
// reader does (NotAtomic may read the reader's tables).
func (p *passes) read(r *trace.Reader) func([]trace.Event) (int, error) {
	return func(evs []trace.Event) (int, error) {
		n, err := r.Read(evs)
		return len(p.filter.Filter(evs[:n])), err
	}
}

// step runs the passes over one batch.
func (p *passes) step(evs []trace.Event) {
	p.m.StepAll(evs, false)
	if p.blame != nil {
		p.blame.step(evs, p.m.First() > 0, p.m.OldestOpen())
	}
}

// stepFirst is step up to the first violating event: the tracker gets
// just the events the monitor stepped.
func (p *passes) stepFirst(evs []trace.Event) {
	before := p.m.Events()
	p.m.StepAll(evs, true)
	if p.blame != nil {
		p.blame.step(evs[:p.m.Events()-before], p.m.First() > 0, p.m.OldestOpen())
	}
}

// finish waits for the tracker, if any, and returns its answer (nil
// without one); it may be called more than once.
func (p *passes) finish() *atomicity.Result {
	if p.blame == nil {
		return nil
	}
	res := p.blame.finish()
	p.blame = nil
	return &res
}

// stepAhead is Check's loop over batches the reader parses on its own
// goroutine (trace.ReadAhead); it returns why the check stopped early (""
// if it read the whole trace).
func (p *passes) stepAhead(ctx context.Context, r *trace.Reader) (string, error) {
	a := trace.ReadAhead(p.read(r))
	defer a.Close()
	for {
		evs, err := a.Batch()
		p.step(evs)
		switch {
		case err == io.EOF:
			return "", nil
		case err != nil:
			return "", err
		case ctx.Err() != nil:
			return context.Cause(ctx).Error(), nil
		}
	}
}
