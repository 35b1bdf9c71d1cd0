package main

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// lineSet against a sorted slice of its members: has, next (each member
// after the one before, 0 after the last) and rank (its index).
func TestLineSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for range testflag.N(50, 1000) {
		var s lineSet
		var members []int64
		span := 1 + rng.Int64N(1000)
		for range rng.IntN(200) {
			l := rng.Int64N(span) // 0 is no line: left out
			s.add(l)
			if l > 0 && !slices.Contains(members, l) {
				members = append(members, l)
			}
		}
		slices.Sort(members)
		require.Equal(t, len(members), s.seal())
		at := int64(0)
		for i, m := range members {
			at = s.next(at)
			require.Equal(t, m, at)
			require.True(t, s.has(m))
			require.False(t, s.has(m+1) && !slices.Contains(members, m+1))
			require.Equal(t, i, s.rank(m))
		}
		require.Zero(t, s.next(at), "after the last")
	}
}

// The second reading keeps the command's budget: once --timeout or
// --max-memory has ended the context (during the monitor's own pass), it
// reads nothing, says why on standard error, and the events are shown by
// line only. It used to take no context and read on regardless
// (monitor.EventsAt).
func TestSecondReadingKeepsTheBudget(t *testing.T) {
	path := file(t, "lost.std", lostUpdateTrace)
	var lines lineSet
	lines.add(2)
	lines.add(3)
	var errb bytes.Buffer
	e := &env{stdout: &bytes.Buffer{}, stderr: &errb}
	sites, err := readSites(context.Background(), e, path, &lines)
	require.NoError(t, err)
	ev, ok := sites.event(3)
	require.True(t, ok, "read with time to spare")
	require.Equal(t, "w", ev.Op)

	stop := errors.New("memory budget exceeded")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(stop)
	lines = lineSet{}
	lines.add(2)
	lines.add(3)
	sites, err = readSites(ctx, e, path, &lines)
	require.NoError(t, err)
	_, ok = sites.event(3)
	require.False(t, ok)
	require.Equal(t, "monitor: memory budget exceeded: the cycles' events are shown by line only\n", errb.String())
}
