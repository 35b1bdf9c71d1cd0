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
// real-trace excerpts in a 1500×1000 window and reads, off the rendered
// page, the bounding boxes of the first picture's cycle marks and
// arrows: each lies inside the window, with no scrolling.
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
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("file://"+abs)), name)
		out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const fig = document.querySelector('figure');
			const bad = [];
			const els = [...fig.querySelectorAll('.event.cycle, [data-edge], .edge-label')];
			for (const e of els) {
				const r = e.getBoundingClientRect();
				if (r.width === 0 || r.left < 0 || r.top < 0 || r.right > window.innerWidth || r.bottom > window.innerHeight)
					bad.push((e.dataset.event || e.dataset.edge || e.textContent) + ' at ' + [r.left, r.top, r.right, r.bottom].map(Math.round));
			}
			return els.length ? bad : ['nothing drawn'];
		})()`))
		require.NoError(t, err, name)
		require.Empty(t, out, "%s: outside the 1500×1000 window", name)
	}
}
