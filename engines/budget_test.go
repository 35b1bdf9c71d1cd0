package engines_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all"
	"github.com/conc-dev/conc/engines/global"
	"github.com/conc-dev/conc/engines/internal/enginetest"
	"github.com/conc-dev/conc/engines/profile"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/lang"
)

// smallBudget is a memory budget a few MiB above what the heap holds now.
//
// It collects first: garbage counted in the heap now and collected later
// would leave the search that much more room than mib.
func smallBudget(mib int64) int64 {
	runtime.GC()
	return budget.New(0).Heap() + mib<<20
}

// TestSearchesStopAtTheMemoryBudget: on testdata/programs/deep_sites.conc,
// lock-free recursion whose search without a budget runs until the
// runtime dies of "out of memory" (the file says why), the global engine
// and brute with lock edges end in unknown, naming the budget and the
// flag.
func TestSearchesStopAtTheMemoryBudget(t *testing.T) {
	src, err := os.ReadFile("../testdata/programs/deep_sites.conc")
	require.NoError(t, err)
	p := enginetest.Compile(t, string(src))
	res, err := profile.Check(context.Background(), p, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, engines.Violation, res.Verdict, "the default engine answers at once")
	for _, tc := range []struct {
		engine string
		opts   engines.Options
	}{
		{"global", engines.Options{}},
		{"global", engines.Options{LockEdges: true}},
		{"brute", engines.Options{LockEdges: true}},
	} {
		t.Run(fmt.Sprintf("%s lock-edges=%v", tc.engine, tc.opts.LockEdges), func(t *testing.T) {
			e, err := engines.Lookup(tc.engine)
			require.NoError(t, err)
			tc.opts.MaxMemory = smallBudget(4)
			res, err := e.Check(context.Background(), p, tc.opts)
			require.NoError(t, err)
			require.Equal(t, engines.Unknown, res.Verdict, res.Reason)
			require.Regexp(t, `^memory budget of [0-9.]+ MiB reached after [0-9,]+ states \(--max-memory raises it\)$`, res.Reason)
			require.Positive(t, res.Stats.States)
		})
	}
}

// TestGlobalTablesBudget: a program of many automaton states (bank.conc's
// deposit repeated) is refused before the global engine builds its
// per-state tables when they would not fit, and searched when they do.
func TestGlobalTablesBudget(t *testing.T) {
	src := `vars balance
locks m
proc deposit { atomic { sync m { read balance } sync m { write balance } } }
thread A { repeat 10000 { call deposit } }
thread B { call deposit }
`
	p, err := lang.Compile("bank.conc", []byte(src))
	require.NoError(t, err)
	res, err := global.Check(context.Background(), p, engines.Options{MaxMemory: smallBudget(1)})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Regexp(t, `^the global engine's tables for 80,0[0-9][0-9] automaton states would need about [0-9.]+ MiB, `+
		`more than the memory budget of [0-9.]+ MiB leaves \(--max-memory raises it\)$`, res.Reason)
	require.Zero(t, res.Stats.States)
	res, err = global.Check(context.Background(), p, engines.Options{MaxMemory: smallBudget(256)})
	require.NoError(t, err)
	require.Equal(t, engines.Violation, res.Verdict, res.Reason)
}
