package engines

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/lang"
)

// deepSites is a 1 KB lock-free recursive program (issue 19) whose product
// the global engine and brute --lock-edges used to search until the runtime
// died of "out of memory", while the profile engine (Lemma 4's saturation)
// answers violation at once: the violating transaction is ten procedures
// deep, out of --max-stack 8's reach, and each procedure has three
// recursive call sites, so the bounded search's stacks are millions.
const deepSites = `vars x, y, z
proc p0 { choose { call p0 } or { call p0 } or { call p0 } or { read x } or { write y } or { call p1 } }
proc p1 { choose { call p1 } or { call p1 } or { call p1 } or { read x } or { write y } or { call p2 } }
proc p2 { choose { call p2 } or { call p2 } or { call p2 } or { read x } or { write y } or { call p3 } }
proc p3 { choose { call p3 } or { call p3 } or { call p3 } or { read x } or { write y } or { call p4 } }
proc p4 { choose { call p4 } or { call p4 } or { call p4 } or { read x } or { write y } or { call p5 } }
proc p5 { choose { call p5 } or { call p5 } or { call p5 } or { read x } or { write y } or { call p6 } }
proc p6 { choose { call p6 } or { call p6 } or { call p6 } or { read x } or { write y } or { call p7 } }
proc p7 { choose { call p7 } or { call p7 } or { call p7 } or { read x } or { write y } or { call p8 } }
proc p8 { choose { call p8 } or { call p8 } or { call p8 } or { read x } or { write y } or { call p9 } }
proc p9 { choose { call p9 } or { call p9 } or { call p9 } or { read x } or { write y } or { atomic { read z; write z } } }
thread A { call p0 }
thread B { call p0 }
thread C { write z }
`

// smallBudget is a memory budget a few MiB above what the heap holds now.
//
// It collects first: garbage counted in the heap now and collected later
// would leave the search that much more room than mib.
func smallBudget(mib int64) int64 {
	runtime.GC()
	return budget.New(0).Heap() + mib<<20
}

// TestSearchesStopAtTheMemoryBudget: on deepSites the global engine and
// brute with lock edges end in unknown, naming the budget and the flag,
// where they used to grow until the runtime crashed.
func TestSearchesStopAtTheMemoryBudget(t *testing.T) {
	p, err := lang.Compile("deep.conc", []byte(deepSites))
	require.NoError(t, err)
	res, err := checkProfile(context.Background(), p, Options{})
	require.NoError(t, err)
	require.Equal(t, Violation, res.Verdict, "the default engine answers at once")
	for _, tc := range []struct {
		engine string
		opts   Options
	}{
		{"global", Options{}},
		{"global", Options{LockEdges: true}},
		{"brute", Options{LockEdges: true}},
	} {
		t.Run(fmt.Sprintf("%s lock-edges=%v", tc.engine, tc.opts.LockEdges), func(t *testing.T) {
			e, err := Lookup(tc.engine)
			require.NoError(t, err)
			tc.opts.MaxMemory = smallBudget(4)
			res, err := e.Check(context.Background(), p, tc.opts)
			require.NoError(t, err)
			require.Equal(t, Unknown, res.Verdict, res.Reason)
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
	res, err := globalCheck(context.Background(), p, Options{MaxMemory: smallBudget(1)})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Regexp(t, `^the global engine's tables for 80,0[0-9][0-9] automaton states would need about [0-9.]+ MiB, `+
		`more than the memory budget of [0-9.]+ MiB leaves \(--max-memory raises it\)$`, res.Reason)
	require.Zero(t, res.Stats.States)
	res, err = globalCheck(context.Background(), p, Options{MaxMemory: smallBudget(256)})
	require.NoError(t, err)
	require.Equal(t, Violation, res.Verdict, res.Reason)
}
