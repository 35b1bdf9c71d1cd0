package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/browsertest"
)

// TestHTMLCycleInViewport loads the predict page and monitor pages of
// real-trace excerpts in a 1500×1000 window and in a 1000×1000 one (a
// smaller laptop's), and reads, off the rendered page, the bounding boxes
// of the first picture's cycle marks and arrows: each lies inside the
// window, with no scrolling.
func TestHTMLCycleInViewport(t *testing.T) {
	ctx := browsertest.Start(t, 1500, 1000)
	tr := "../../testdata/traces/"
	dir := t.TempDir()
	for k, args := range [][]string{
		{"predict", tr + "jgf-sor-reduced.std"},
		{"predict", tr + "jgf-lufact-reduced.std"},
		{"monitor", tr + "jgf-sor-reduced.std", "--lock-edges"},
		{"monitor", tr + "jgf-lufact-reduced.std", "--cycles"},
	} {
		name := strings.Join(args, " ")
		page := filepath.Join(dir, fmt.Sprintf("p%d.html", k))
		conc(append(args, "--html", page)...)
		abs, err := filepath.Abs(page)
		require.NoError(t, err)
		for _, width := range []int64{1500, 1000} {
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(width, 1000),
				chromedp.Navigate("file://"+abs)), name)
			inner, err := chromedp.Run(ctx, chromedp.Evaluate[int64](`window.innerWidth`))
			require.NoError(t, err, name)
			require.Equal(t, width, inner, "%s: the window's width", name)
			out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](outsideViewport))
			require.NoError(t, err, name)
			require.Empty(t, out, "%s: outside the %d×1000 window", name, width)
		}
	}
}

// outsideViewport lists the first picture's cycle marks, arrows and
// labels that are not drawn whole inside the window ("nothing drawn" if
// there are none).
const outsideViewport = `(() => {
	const fig = document.querySelector('figure');
	const bad = [];
	const els = [...fig.querySelectorAll('.event.cycle, [data-edge], .edge-label')];
	for (const e of els) {
		const r = e.getBoundingClientRect();
		if (r.width === 0 || r.left < 0 || r.top < 0 || r.right > window.innerWidth || r.bottom > window.innerHeight)
			bad.push((e.dataset.event || e.dataset.edge || e.textContent) + ' at ' + [r.left, r.top, r.right, r.bottom].map(Math.round));
	}
	return els.length ? bad : ['nothing drawn'];
})()`
