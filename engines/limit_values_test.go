package engines_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/lang"
)

// wide is two transactions over n variables, A reading them in one order
// and B writing them in the other: a violation the engines reach only
// after some states and work.
func wide(n int) string {
	var a, b strings.Builder
	for i := range n {
		fmt.Fprintf(&a, " read v%d;", i)
		fmt.Fprintf(&b, " write v%d;", n-1-i)
	}
	return "thread A { atomic {" + a.String() + " } }\nthread B { atomic {" + b.String() + " } }\n"
}

// TestEnginesNameTheirLimit: each engine's unknown carries the limit its
// reason names: --max-states, the context's end, the memory budget, and
// brute's --max-depth.
func TestEnginesNameTheirLimit(t *testing.T) {
	p, err := lang.Compile("wide.conc", []byte(wide(300)))
	require.NoError(t, err)
	ended, cancel := context.WithCancel(t.Context())
	cancel()
	for _, name := range []string{"profile", "global", "brute"} {
		e, err := engines.Lookup(name)
		require.NoError(t, err)
		for _, tc := range []struct {
			ctx  context.Context
			opts engines.Options
			want engines.Limit
		}{
			{t.Context(), engines.Options{MaxStates: 1}, engines.StateBudget},
			{ended, engines.Options{}, engines.Deadline},
			{t.Context(), engines.Options{MaxMemory: 1}, engines.MemoryBudget},
		} {
			res, err := e.Check(tc.ctx, p, tc.opts)
			require.NoError(t, err)
			require.Equal(t, engines.Unknown, res.Verdict, "%s %+v: %s", name, tc.opts, res.Reason)
			require.Equal(t, tc.want, res.Limit, "%s %+v: %s", name, tc.opts, res.Reason)
		}
	}
	loop, err := lang.Compile("loop.conc", []byte("vars x\nthread A { loop { atomic { read x; read x } } }\nthread B { loop { write x } }\n"))
	require.NoError(t, err)
	brute, err := engines.Lookup("brute")
	require.NoError(t, err)
	res, err := brute.Check(t.Context(), loop, engines.Options{MaxDepth: 1})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict, res.Reason)
	require.Equal(t, engines.SearchBound, res.Limit, res.Reason)
}
