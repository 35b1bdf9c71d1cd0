package engines

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/lang"
)

// manySites is a lock-free recursive program (issue 19) whose product the
// global engine and brute --lock-edges search for minutes, growing their
// visited sets by gigabytes, while the profile engine (Lemma 4's
// saturation) answers at once: p has seven call sites, so a stack of eight
// frames has millions of contents per thread.
const manySites = `vars x, y, z
proc p {
  choose { read x } or { call p } or { call p } or { call p } or { call p } or { write y }
    or { atomic { read z; call p; write z } }
}
thread A { call p }
thread B { call p }
thread C { call p }
`

// smallBudget is a memory budget a few MiB above what the heap holds now.
func smallBudget(mib int64) int64 { return budget.New(0).Heap() + mib<<20 }

// TestSearchesStopAtTheMemoryBudget: on manySites the global engine and
// brute with lock edges end in unknown, naming the budget and the flag,
// where they used to grow until the runtime crashed.
func TestSearchesStopAtTheMemoryBudget(t *testing.T) {
	p, err := lang.Compile("sites.conc", []byte(manySites))
	require.NoError(t, err)
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
