package check

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

// hog is an engine that allocates 64 MiB, as a pass that counts no states
// would, and then never answers until released: only the watch can stop
// it. It is not registered: Run takes it as it is.
func hog(release <-chan struct{}) *engines.Engine {
	return &engines.Engine{Name: "hog", Doc: "a pass that ignores the memory budget",
		Check: func(ctx context.Context, _ *model.Program, _ engines.Options) (engines.Result, error) {
			var held [][]byte
			for range 64 {
				held = append(held, make([]byte, 1<<20))
			}
			<-release
			runtime.KeepAlive(held)
			return engines.Result{Verdict: engines.Serializable}, nil
		}}
}

// TestMemoryWatchAbandonsEngine: an engine that does not poll the memory
// budget is abandoned once the heap reaches it, and the answer is unknown
// naming the budget and the flag (not serializable, not a crash).
func TestMemoryWatchAbandonsEngine(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	e := hog(release)
	p, err := lang.Compile("p.conc", []byte("vars x\nthread A { atomic { read x; write x } }\nthread B { write x }\n"))
	require.NoError(t, err)
	limit := budget.New(0).Heap() + 16<<20
	type answer struct {
		res engines.Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := Run(e, p, engines.Options{MaxMemory: limit}, Deadline{D: DefaultTimeout})
		done <- answer{res, err} // require's FailNow belongs to the test's goroutine
	}()
	select {
	case a := <-done:
		require.NoError(t, a.err)
		res := a.res
		require.Equal(t, engines.Unknown, res.Verdict)
		require.Regexp(t, `^memory budget of [0-9.]+ MiB reached \(--max-memory raises it\)$`, res.Reason)
	case <-time.After(20 * time.Second):
		t.Fatal("Run waited for an engine over its memory budget")
	}
}
