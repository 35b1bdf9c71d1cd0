package budget

import (
	"context"
	"fmt"
	"time"
)

// Exceeded is the cause of a context Watch ended: the heap reached the
// budget.
type Exceeded struct{ Limit int64 }

func (e *Exceeded) Error() string {
	return fmt.Sprintf("memory budget of %s reached (--max-memory raises it)", Format(e.Limit))
}

// watchEvery is how often Watch reads the heap: a read costs about 0.7 µs (BenchmarkHeap).
const watchEvery = 20 * time.Millisecond

// Watch returns a context that ends, with cause *Exceeded, when the heap
// reaches the budget of limit bytes (0: the default): for the passes that
// watch a context but count no states (conc monitor's reading of a trace).
// Searches poll their own meter, which names the states they reached. The
// cancel function ends the watch.
func Watch(ctx context.Context, limit int64) (context.Context, context.CancelFunc) {
	m := New(limit)
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		tick := time.NewTicker(watchEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if m.Over() {
					cancel(&Exceeded{Limit: m.limit})
					return
				}
			}
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}
