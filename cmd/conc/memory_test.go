package main

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

// TestMaxMemoryFlag: check, predict and monitor take --max-memory SIZE;
// a size without a unit below 1 MiB is refused with a hint, and the help
// states the default.
func TestMaxMemoryFlag(t *testing.T) {
	prog := file(t, "p.conc", lostUpdate)
	trace := file(t, "t.std", "T1|begin|1\nT1|r(x)|2\nT2|w(x)|3\nT1|w(x)|4\nT1|end|5\n")
	for _, args := range [][]string{
		{"check", prog}, {"predict", trace}, {"monitor", trace},
	} {
		o := conc(append(args, "--max-memory", "512MiB")...)
		require.Equal(t, exitViolation, o.code, "%v: %s", args, o.stderr)
		o = conc(append(args, "--max-memory", "5")...)
		require.Equal(t, exitUsage, o.code)
		require.Contains(t, o.stderr, `--max-memory "5": want at least 1MiB; a size needs a unit, e.g. 512MiB or 4GiB`)
		o = conc(args[0], "--help")
		require.Regexp(t, `-max-memory SIZE\s+give up with verdict unknown .* default: 3/4 of this machine's memory, [0-9.]+ [GMT]iB`, o.stdout)
	}
}

// TestCheckTooLargeForBudget: a program whose automata would not fit the
// budget is unknown (exit 3) before it is compiled, in text and JSON.
func TestCheckTooLargeForBudget(t *testing.T) {
	big := file(t, "big.conc", "vars x\nthread A { atomic { repeat 1000000 { repeat 29 { read x } } } }\nthread B { write x }\n")
	o := conc("check", big, "--max-memory", "64MiB")
	require.Equal(t, exitUnknown, o.code, o.stderr)
	require.Contains(t, o.stdout, "unknown: compiling the program's automata (29,000,005 states) would need about 2.7 GiB, "+
		"more than the memory budget of 64 MiB leaves (--max-memory raises it)\n")
	o = conc("check", big, "--max-memory", "64MiB", "--format", "json")
	require.Equal(t, exitUnknown, o.code, o.stderr)
	require.Contains(t, o.stdout, `"verdict": "unknown"`)
	require.Contains(t, o.stdout, `(--max-memory raises it)"`)
}

// hog is an engine that allocates 64 MiB, as a pass that counts no states
// would, and then never answers until released: only the watch can stop
// it. It is not registered: runEngine takes it as it is.
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
	p, err := lang.Compile("p.conc", []byte(lostUpdate))
	require.NoError(t, err)
	limit := budget.New(0).Heap() + 16<<20
	type answer struct {
		res engines.Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := runEngine(e, p, engines.Options{MaxMemory: limit}, deadline{d: defaultTimeout})
		done <- answer{res, err} // require's FailNow belongs to the test's goroutine
	}()
	select {
	case a := <-done:
		require.NoError(t, a.err)
		res := a.res
		require.Equal(t, engines.Unknown, res.Verdict)
		require.Regexp(t, `^memory budget of [0-9.]+ MiB reached \(--max-memory raises it\)$`, res.Reason)
	case <-time.After(20 * time.Second):
		t.Fatal("runEngine waited for an engine over its memory budget")
	}
}

// TestPredictMemoryBudget: predict's lock-free chain search over 29
// writers of x that chain into each other every way, and a transaction
// whose second access no chain reaches (no violation: only a budget ends
// the search), ends in unknown at a budget the heap already exceeds,
// naming the budget and the flag.
func TestPredictMemoryBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("T0|begin\nT0|w(x)\nT0|w(z)\nT0|end\nTz|r(z)\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&b, "T%d|w(x)\n", i)
	}
	trace := file(t, "stuck.std", b.String())
	o := conc("predict", trace, "--max-memory", "1MiB")
	require.Equal(t, exitUnknown, o.code, o.stdout+o.stderr)
	require.Regexp(t, `(?m)^unknown: memory budget of 1 MiB reached .*\(--max-memory raises it\)$`, o.stdout)
}
