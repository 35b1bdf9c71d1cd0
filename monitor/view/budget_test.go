package view

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBudgetEndsInUnknown: a search that needs more than one state,
// given one, answers Unknown with --max-states in its reason; so does a
// polygraph with more choices than the budget holds.
func TestBudgetEndsInUnknown(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 29))
	searched, choices := 0, 0
	for range 1500 {
		text := genShaped(rng, 3+rng.IntN(2), 2+rng.IntN(2), 5+rng.IntN(4))
		if strings.TrimSpace(text) == "" {
			continue
		}
		full := check(t, text, Options{})
		if full.Decided != StageSearch {
			continue
		}
		if full.Stats.States > 1 {
			searched++
			res := check(t, text, Options{MaxStates: 1})
			require.Equal(t, Unknown, res.Verdict, "%s", text)
			require.Contains(t, res.Reason, "--max-states 1")
		}
		if full.Stats.Choices > choicesPerState {
			choices++
			res := check(t, text, Options{MaxStates: 1})
			require.Equal(t, Unknown, res.Verdict, "%s", text)
			require.Contains(t, res.Reason, "choices")
		}
	}
	require.Greater(t, searched, 10)
	require.Greater(t, choices, 10)
}

// TestDeadlineEndsInUnknown: a context already ended stops the reading.
func TestDeadlineEndsInUnknown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Check(ctx, reader(t, "T1|w(x)\nT2|w(x)\n"), Options{})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Contains(t, res.Reason, "canceled")
}
