package profile

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

// pfWide is two threads, one transaction each: A reads v0..vn-1, B writes
// them in the opposite order (a violation). For n = 1,000 (cmd/conc's
// TestDefaultTimeout) the relevance of the first search alone ran 40 s
// without looking at the deadline or the state limit.
func pfWide(t *testing.T, n int) *model.Program {
	var a, b strings.Builder
	for i := range n {
		fmt.Fprintf(&a, " read v%d;", i)
		fmt.Fprintf(&b, " write v%d;", n-1-i)
	}
	src := "thread A { atomic {" + a.String() + " } }\nthread B { atomic {" + b.String() + " } }\n"
	p, err := lang.Compile("wide.conc", []byte(src))
	require.NoError(t, err)
	return p
}

// A context that ended before Check was called ends the search before it
// starts: even a program decided in a few states answers unknown, naming
// the deadline.
func TestProfileContextEndedBefore(t *testing.T) {
	p := pfWide(t, 5)
	res, err := Check(t.Context(), p, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, engines.Violation, res.Verdict)

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err = Check(ctx, p, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Contains(t, res.Reason, "--timeout")
	require.Zero(t, res.Stats.States)
}

// A context that ends while the relevance is computed (before any state is
// stored) ends the search at the next poll: the hook cancels at the first
// poll inside the search, and no third poll happens.
func TestProfileContextEndedDuring(t *testing.T) {
	p := pfWide(t, 1000)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	polls := 0
	pollHook = func() {
		polls++
		if polls == 2 { // the first poll is Decide's, before the search
			cancel()
		}
	}
	defer func() { pollHook = nil }()
	res, err := Check(ctx, p, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, "deadline reached (--timeout)", res.Reason)
	require.Equal(t, 2, polls)
	require.Zero(t, res.Stats.States)
}

// --max-states also bounds the work between states: with a limit of one
// state, the relevance of the first search (millions of steps, no state)
// is cut, with the state limit's reason.
func TestProfileMaxStatesCutsWork(t *testing.T) {
	p := pfWide(t, 200)
	polls := 0
	pollHook = func() { polls++ }
	defer func() { pollHook = nil }()
	res, err := Check(t.Context(), p, engines.Options{MaxStates: 1})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, stateLimit, res.Reason)
	require.Zero(t, res.Stats.States)
	// Cut within a poll interval of the limit's stepsPerState steps.
	require.LessOrEqual(t, polls, 1+stepsPerState/(tickDeadline+1)+1)
}

// The memory budget is polled between states too: a budget the heap is
// already over ends the search at the first memory poll.
func TestProfileMemoryBetweenStates(t *testing.T) {
	p := pfWide(t, 1000)
	res, err := Check(t.Context(), p, engines.Options{MaxMemory: 1})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Contains(t, res.Reason, "memory budget of")
	require.Contains(t, res.Reason, "--max-memory")
	require.Zero(t, res.Stats.States)
}

// The extraction watches the context too (a straight line polls every
// 16,384 edges): a context ended before it stops it, and the engine
// answers unknown for the deadline rather than failing with the
// extraction's error.
func TestProfileContextEndsExtraction(t *testing.T) {
	src := "vars x\nthread A {" + strings.Repeat(" read x;", 6000) + " }\nthread B { write x }\n"
	p, err := lang.Compile("long.conc", []byte(src))
	require.NoError(t, err)
	_, err = FiniteProfiles(t.Context(), p)
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = FiniteProfiles(ctx, p)
	require.ErrorIs(t, err, context.Canceled)
	res, err := Check(ctx, p, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, "deadline reached (--timeout)", res.Reason)
}
