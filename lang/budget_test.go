package lang

import (
	gocontext "context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCompileWithinBudget: a 90-byte file of 29 M events needs
// about 100 bytes a state while compiling; under a budget that cannot hold
// them it is refused before anything is allocated, with the states, the
// bytes and the flag that raises the budget, and the same budget still
// compiles a small program.
func TestCompileWithinBudget(t *testing.T) {
	src := "vars x\nthread A { atomic { repeat 1000000 { repeat 29 { read x } } } }\nthread B { write x }\n"
	p, err := CompileWithin("big.conc", []byte(src), 256<<20)
	require.Nil(t, p)
	var big *TooLarge
	require.True(t, errors.As(err, &big), "want *TooLarge, got %v", err)
	require.EqualValues(t, 29_000_005, big.States)
	require.Equal(t, big.States*bytesPerState, big.Need)
	require.Equal(t, "compiling the program's automata (29,000,005 states) would need about 2.7 GiB, "+
		"more than the memory budget of 256 MiB leaves (--max-memory raises it)", err.Error())

	p, err = CompileWithin("small.conc", []byte("vars x\nthread A { repeat 1000 { read x } }\n"), 256<<20)
	require.NoError(t, err)
	require.Len(t, p.Threads, 1)
}

// TestCompileWithinKeepsStaticErrors: a program with errors reports them
// (exit 2), not the budget; one beyond maxStates keeps its message.
func TestCompileWithinKeepsStaticErrors(t *testing.T) {
	_, err := CompileWithin("bad.conc", []byte("vars x\nthread A { read y; repeat 1000000 { repeat 1000 { read x } } }\n"), 256<<20)
	var errs ErrorList
	require.True(t, errors.As(err, &errs), "want an ErrorList, got %v", err)
	require.Contains(t, err.Error(), "undeclared")
	_, err = CompileWithin("huge.conc", []byte("vars x\nthread A { atomic { repeat 1000000 { repeat 31 { read x } } } }\n"), 1<<50)
	require.ErrorAs(t, err, &errs)
	require.Contains(t, err.Error(), "is too large: more than 30000000 states")
	// Also under a budget too small for maxStates states: the input limit
	// is the error, not an unknown for the budget.
	_, err = CompileWithin("huge.conc", []byte("vars x\nthread A { atomic { repeat 1000000 { repeat 31 { read x } } } }\n"), 256<<20)
	require.ErrorAs(t, err, &errs)
	require.Contains(t, err.Error(), "is too large: more than 30000000 states")
}

// TestSizeCountsTheInitialState: a thread of exactly maxStates states
// besides its initial one is refused from the syntax, before building (the
// estimate left the initial state out, and the builder found the excess
// after 8 s and 2.3 GB).
func TestSizeCountsTheInitialState(t *testing.T) {
	// Ten unary reads are 30 states: 10^6 of them are 3·10^7, plus init.
	_, err := Compile("edge.conc", []byte("vars x\nthread A { repeat 1000000 { repeat 10 { read x } } }\n"))
	var errs ErrorList
	require.ErrorAs(t, err, &errs)
	require.Equal(t, "edge.conc:2:1: thread A is too large: more than 30000000 states "+sizeHint, err.Error())
}

// TestCompileLimitedStops: a compile under way stops when its context
// ends, with the context's cause and the states it built, and at the
// state limit, with the limit's reason; a program within the limits
// compiles.
func TestCompileLimitedStops(t *testing.T) {
	src := []byte("vars x\nthread A { atomic { repeat 1000000 { repeat 24 { read x } } } }\nthread B { write x }\n")
	ctx, cancel := gocontext.WithTimeout(gocontext.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	p, err := CompileLimited("big.conc", src, Limits{Ctx: ctx})
	require.Nil(t, p)
	require.Less(t, time.Since(start), 10*time.Second, "stopped well before the end (5 s)")
	var stopped *Stopped
	require.ErrorAs(t, err, &stopped)
	require.ErrorIs(t, err, gocontext.DeadlineExceeded)
	require.Greater(t, stopped.States, int64(0))
	require.Less(t, stopped.States, int64(24_000_005))

	p, err = CompileLimited("big.conc", src, Limits{MaxStates: 1000})
	require.Nil(t, p)
	var big *TooLarge
	require.ErrorAs(t, err, &big)
	require.Equal(t, "compiling the program's automata: more than 1,000 states (--max-states 1000)", err.Error())

	// Threads count together: 2·(1+3·100)+1 states are more than 600.
	two := []byte("vars x\nthread A { repeat 100 { read x } }\nthread B { repeat 100 { read x } }\n")
	_, err = CompileLimited("two.conc", two, Limits{MaxStates: 600})
	require.ErrorAs(t, err, &big)
	p, err = CompileLimited("two.conc", two, Limits{MaxStates: 700, Ctx: gocontext.Background()})
	require.NoError(t, err)
	require.Len(t, p.Threads, 2)
}
