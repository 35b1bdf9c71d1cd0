package profiles

import (
	"context"
	"errors"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// Every extraction loop watches its context: the straight-line walk (one
// word and wide sets), the regular fixpoint and Lemma 4's saturation each
// stop with the context's cause when it has ended, instead of finishing
// (conc profiles and conc serve's explain abandoned them, and they ran on).
// Extract polls only inside its loops, so an error here shows the loop
// polled.
func TestExtractWatchesContext(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, c := range []struct {
		name  string
		a     *model.Automaton
		nvars int
	}{
		{"line, one word", bigLine(r, 100_000, 8), 8},
		{"line, wide", bigLine(r, 100_000, 200), 200},
		{"regular", bigLoop(r, 20_000, 8), 8},
		{"pushdown, procedural", procedural(r, 2_000, 8), 8},
		{"pushdown, chain", chain(r, 60, 8), 8},
	} {
		p, err := ExtractContext(t.Context(), c.a, c.nvars)
		require.NoError(t, err, c.name)
		require.NotZero(t, p.Count(), c.name)

		cause := errors.New("the test's cause")
		ctx, cancel := context.WithCancelCause(t.Context())
		cancel(cause)
		p, err = ExtractContext(ctx, c.a, c.nvars)
		require.ErrorIs(t, err, cause, c.name)
		require.Nil(t, p, c.name)
	}
}

// Groups (conc profiles) passes the cause on, naming the thread.
func TestGroupsWatchContext(t *testing.T) {
	a := bigLoop(rand.New(rand.NewSource(2)), 20_000, 8)
	p := &model.Program{Vars: []string{"a", "b", "c", "d", "e", "f", "g", "h"},
		Threads: []*model.Thread{{Name: "T", Auto: a}}}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := Groups(ctx, p)
	require.ErrorIs(t, err, context.Canceled)
	require.Contains(t, err.Error(), "thread T")
}
