package monitor

import (
	"context"
	"io"

	"github.com/conc-dev/conc/trace"
)

// stepAhead is CheckTrace's loop over batches the reader parses on its own
// goroutine (trace.ReadAhead); it returns why the check stopped early (""
// if it read the whole trace).
func (m *TraceMonitor) stepAhead(ctx context.Context, r *trace.Reader) (string, error) {
	a := trace.ReadAhead(r.Read)
	defer a.Close()
	for {
		evs, err := a.Batch()
		m.StepAll(evs, false)
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
