package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/browsertest"
)

// stepState is what the first picture shows after a click on step: the
// event it stands at (-1 past the end), how many marks are dimmed, and
// for each arrow and label whether it is shown whole.
type stepState struct {
	Current int         `json:"current"`
	Marks   int         `json:"marks"`
	Dimmed  int         `json:"dimmed"`
	Now     string      `json:"now"`
	Arrows  []stepArrow `json:"arrows"`
}

type stepArrow struct {
	Ends  string `json:"ends"` // data-edge or data-label: FROM-TO
	Shown bool   `json:"shown"`
}

// readStep reads a stepState off the page: an element is shown when its
// computed opacity is 1 (the script dims the future to .15).
const readStep = `(() => {
	const svg = document.querySelector('figure svg.timeline');
	const cur = svg.querySelector('[data-event].current');
	const marks = svg.querySelectorAll('[data-event]');
	return {current: cur ? +cur.dataset.event : -1, marks: marks.length,
		dimmed: [...marks].filter(m => getComputedStyle(m).opacity !== '1').length,
		now: document.querySelector('figure .stepper .now').textContent,
		arrows: [...svg.querySelectorAll('[data-edge], [data-label]')].map(a => ({
			ends: a.dataset.edge || a.dataset.label, shown: getComputedStyle(a).opacity === '1'}))};
})()`

// TestHTMLStepControl clicks through the step control of a check, a
// predict and monitor pages, event by event to the end: at each step the
// current event is the next mark's, the marks after it are dimmed, and an
// arrow (and its label) is shown exactly when the later of its two events
// has been reached; past the last event everything is shown again, and
// play walks again from the first.
func TestHTMLStepControl(t *testing.T) {
	ctx := browsertest.Start(t, 1400, 1000)
	tr := "../../testdata/traces/"
	dir := t.TempDir()
	for k, args := range [][]string{
		{"check", "../../examples/fig1.conc"},
		{"predict", tr + "jgf-lufact-reduced.std"},
		{"monitor", tr + "jgf-sor-reduced.std", "--lock-edges"},
		{"monitor", tr + "jgf-lufact-reduced.std", "--cycles"},
	} {
		name := strings.Join(args, " ")
		page := filepath.Join(dir, fmt.Sprintf("s%d.html", k))
		conc(append(args, "--html", page)...)
		abs, err := filepath.Abs(page)
		require.NoError(t, err)
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("file://"+abs)), name)
		first, err := chromedp.Run(ctx, chromedp.Evaluate[stepState](readStep))
		require.NoError(t, err, name)
		require.NotEmpty(t, first.Arrows, "%s: no arrow drawn", name)
		events := eventsOf(t, ctx, name)
		for i, ev := range events {
			s := clickStep(t, ctx, name)
			require.Equal(t, ev, s.Current, "%s: step %d: %+v", name, i+1, s)
			require.Equal(t, len(events)-1-i, s.Dimmed, "%s: step %d's dimmed marks", name, i+1)
			require.Contains(t, s.Now, fmt.Sprintf("event %d of %d", i+1, len(events)), name)
			for _, a := range s.Arrows {
				require.Equal(t, laterEnd(t, a.Ends) <= ev, a.Shown, "%s: step %d (event %d), arrow %s", name, i+1, ev, a.Ends)
			}
		}
		end := clickStep(t, ctx, name)
		require.Equal(t, -1, end.Current, "%s: past the end", name)
		require.Zero(t, end.Dimmed, name)
		require.Len(t, end.Arrows, len(first.Arrows), name)
		for _, a := range end.Arrows {
			require.True(t, a.Shown, "%s: at the end, arrow %s", name, a.Ends)
		}
		// Play starts the walk again from the first event; a second click
		// pauses it.
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(`figure .stepper .play`)), name)
		again, err := chromedp.Run(ctx, chromedp.Evaluate[stepState](readStep))
		require.NoError(t, err, name)
		require.Equal(t, events[0], again.Current, "%s: play from the end", name)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(`figure .stepper .play`)), name)
		require.Equal(t, "▶ play", text(t, ctx, `document.querySelector('figure .stepper .play').textContent`), name)
	}
}

// eventsOf are the first picture's marks' events, in the order the step
// control walks them.
func eventsOf(t *testing.T, ctx context.Context, name string) []int {
	t.Helper()
	ev, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](
		`[...document.querySelector('figure svg.timeline').querySelectorAll('[data-event]')].map(m => +m.dataset.event).sort((a, b) => a - b)`))
	require.NoError(t, err, name)
	require.NotEmpty(t, ev, name)
	return ev
}

func clickStep(t *testing.T, ctx context.Context, name string) stepState {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(`figure .stepper .step`)), name)
	s, err := chromedp.Run(ctx, chromedp.Evaluate[stepState](readStep))
	require.NoError(t, err, name)
	return s
}

// laterEnd is the later of an arrow's two events (FROM-TO).
func laterEnd(t *testing.T, ends string) int {
	t.Helper()
	from, to, ok := strings.Cut(ends, "-")
	require.True(t, ok, ends)
	a, err := strconv.Atoi(from)
	require.NoError(t, err, ends)
	b, err := strconv.Atoi(to)
	require.NoError(t, err, ends)
	return max(a, b)
}
