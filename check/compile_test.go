package check

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/lang"
)

// hugeProgram's automata take about 2.2 GiB to compile.
const hugeProgram = "vars x\nthread A { atomic { repeat 1000000 { repeat 24 { read x } } } }\nthread B { write x }\n"

// TestCompileUnknownNamesTheLimit: a compile the run's limits refused or
// stopped is an unknown answer carrying the limit its reason names; a
// compile its caller cancelled is no answer.
func TestCompileUnknownNamesTheLimit(t *testing.T) {
	const mid = "vars x\nthread A { atomic { repeat 100000 { read x } } }\nthread B { write x }\n"
	dl := Deadline{D: time.Second, Given: true}
	over, overBy := context.WithCancelCause(t.Context())
	overBy(&budget.Exceeded{Limit: 64 << 20})
	passed, cancel := context.WithDeadline(t.Context(), time.Now())
	defer cancel()
	gone, leave := context.WithCancel(t.Context())
	leave()
	for _, tc := range []struct {
		src  string
		lim  lang.Limits
		want engines.Limit
	}{
		{mid, lang.Limits{MaxStates: 1000}, engines.StateBudget},
		{hugeProgram, lang.Limits{MaxBytes: 64 << 20}, engines.MemoryBudget},
		{mid, lang.Limits{Ctx: over}, engines.MemoryBudget},
		{mid, lang.Limits{Ctx: passed}, engines.Deadline},
	} {
		_, err := lang.CompileLimited("p.conc", []byte(tc.src), tc.lim)
		res, ok := CompileUnknown(err, dl)
		require.True(t, ok, "%v", err)
		require.Equal(t, engines.Unknown, res.Verdict)
		require.Equal(t, tc.want, res.Limit, res.Reason)
	}
	_, err := lang.CompileLimited("p.conc", []byte(mid), lang.Limits{Ctx: gone})
	require.Error(t, err)
	_, ok := CompileUnknown(err, dl)
	require.False(t, ok)
}
