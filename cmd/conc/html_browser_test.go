package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/browsertest"
	"github.com/conc-dev/conc/report/html"
)

// htmlPage is one --html page to load: the command line, without --html
// and --format; shot names the screenshot kept in docs/img, if any.
type htmlPage struct {
	args []string
	shot string
}

// htmlPages are every example (under pageFlags) and trace excerpts for
// monitor and predict.
func htmlPages(t *testing.T) []htmlPage {
	files, err := filepath.Glob("../../examples/*.conc")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var pages []htmlPage
	for _, path := range files {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		flags := pageFlags(string(src))
		p := htmlPage{args: append([]string{"check", path}, flags...)}
		if filepath.Base(path) == "fig1.conc" {
			p.shot = "check"
		}
		pages = append(pages, p)
	}
	tr := "../../testdata/traces/"
	return append(pages,
		htmlPage{args: []string{"monitor", tr + "jgf-sor-reduced.std", "--lock-edges"}, shot: "monitor"},
		htmlPage{args: []string{"monitor", tr + "jgf-lufact-reduced.std", "--lock-edges"}},
		htmlPage{args: []string{"monitor", file(t, "skew.std", writeSkewTrace)}},
		htmlPage{args: []string{"monitor", tr + "jgf-sor-reduced.std", "--lock-edges", "--cycles"}},
		htmlPage{args: []string{"monitor", tr + "jgf-moldyn-reduced.std", "--lock-edges", "--max-cycle", "3", "--cycles"}},
		htmlPage{args: []string{"monitor", tr + "jgf-montecarlo-head.std", "--cycles"}},
		htmlPage{args: []string{"monitor", tr + "jgf-montecarlo-head.std"}},
		htmlPage{args: []string{"predict", tr + "jgf-lufact-reduced.std"}, shot: "predict"},
		htmlPage{args: []string{"predict", tr + "jgf-raytracer-reduced.std"}},
	)
}

// pageFlags are the flags of an example's first want line that expects a
// violation (its page draws a witness), else of its first.
func pageFlags(src string) []string {
	want := wantLine.FindAllStringSubmatch(src, -1)
	for _, m := range want {
		if m[1] == "violation" {
			return strings.Fields(m[2])
		}
	}
	if len(want) > 0 {
		return strings.Fields(want[0][2])
	}
	return nil
}

// drawnPage is what the browser finds on a page: the verdict shown, and
// for the witness and each group its marks and arrows.
type drawnPage struct {
	Verdict string        `json:"verdict"`
	Witness *drawnFigure  `json:"witness"`
	Groups  []drawnFigure `json:"groups"`
}

type drawnFigure struct {
	Marks []drawnMark `json:"marks"`
	Edges []string    `json:"edges"`
}

// drawnMark is a data-event mark: its value, whether on the cycle, its
// tooltip and its rendered width.
type drawnMark struct {
	I     int     `json:"i"`
	Cycle bool    `json:"cycle"`
	Title string  `json:"title"`
	Width float64 `json:"width"`
}

// readPage is the script that reads a drawnPage off the rendered page.
const readPage = `(() => {
  const figure = root => root && {
    marks: [...root.querySelectorAll('[data-event]')].map(e => ({
      i: +e.dataset.event, cycle: e.classList.contains('cycle'),
      title: e.querySelector('title').textContent, width: e.getBoundingClientRect().width})),
    edges: [...root.querySelectorAll('[data-edge]')].map(e => e.dataset.edge)};
  return {
    verdict: document.getElementById('verdict').textContent,
    witness: figure(document.querySelector('section.witness')),
    groups: [...document.querySelectorAll('section.group')].map(figure)};
})()`

// TestHTMLInBrowser loads every page in headless Chromium, one browser
// for all, and holds what it shows to the same run's JSON: the verdict,
// a mark per cycle event (each drawn, with its op in its tooltip), an
// arrow per cycle pair; for monitor, the same for each group's example
// cycle. It takes a screenshot of one page of each kind.
func TestHTMLInBrowser(t *testing.T) {
	ctx := browsertest.Start(t, pageWidth, 640)
	dir := t.TempDir()
	for k, p := range htmlPages(t) {
		name := strings.Join(p.args, " ")
		page := filepath.Join(dir, fmt.Sprintf("page%d.html", k))
		o := conc(append(p.args, "--format", "json", "--html", page)...)
		require.Contains(t, []int{exitSerializable, exitViolation, exitUnknown}, o.code, "%s: %s", name, o.stderr)
		abs, err := filepath.Abs(page)
		require.NoError(t, err)
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("file://"+abs)), name)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[drawnPage](readPage))
		require.NoError(t, err, name)
		var want drawnJSON
		require.NoError(t, json.Unmarshal([]byte(o.stdout), &want), name)
		require.Equal(t, want.Verdict, got.Verdict, name)
		if p.args[0] == "monitor" {
			checkDrawnGroups(t, name, want, got)
		} else {
			checkDrawnWitness(t, name, want, got)
		}
		if p.shot != "" {
			screenshot(t, ctx, p.shot)
		}
	}
}

// drawnJSON is the part of the JSON (docs/spec.md §5) the pages draw.
type drawnJSON struct {
	Verdict string `json:"verdict"`
	Witness *struct {
		Run []struct {
			Op     string `json:"op"`
			Target string `json:"target"`
		} `json:"run"`
		Cycle []struct{ From, To int } `json:"cycle"`
	} `json:"witness"`
	Groups []drawnGroup `json:"groups"`
	// conc monitor's default answer: the broken transactions' groups,
	// or the joint violation.
	NonAtomic       *int         `json:"non_atomic"`
	NonAtomicGroups []drawnGroup `json:"non_atomic_groups"`
	Joint           []drawnGroup `json:"joint"`
}

// drawnGroup is a group of the JSON, its example cycle (or path) drawn.
type drawnGroup struct {
	Cycle []struct {
		Events []struct {
			Line int `json:"line"`
		} `json:"events"`
	} `json:"cycle"`
	Elided   int `json:"elided"`
	ElidedAt int `json:"elided_at"`
}

// shownGroups are the groups a page draws (at most --max-groups' 20): for
// conc monitor's default answer, the broken transactions' then the joint
// violation's.
func (j drawnJSON) shownGroups() []drawnGroup {
	if j.NonAtomic == nil {
		return j.Groups[:min(len(j.Groups), 20)]
	}
	return append(j.NonAtomicGroups[:min(len(j.NonAtomicGroups), 20):min(len(j.NonAtomicGroups), 20)], j.Joint...)
}

func checkDrawnWitness(t *testing.T, name string, want drawnJSON, got drawnPage) {
	if want.Witness == nil {
		require.Nil(t, got.Witness, name)
		return
	}
	require.NotNil(t, got.Witness, "%s: no witness drawn", name)
	run := want.Witness.Run
	var cycle []int
	var edges []string
	for _, c := range want.Witness.Cycle {
		cycle = append(cycle, c.From, c.To)
		edges = append(edges, fmt.Sprintf("%d-%d", c.From, c.To))
	}
	slices.Sort(cycle)
	var drawn []int
	for _, m := range got.Witness.Marks {
		require.Less(t, m.I, len(run), name)
		require.Positive(t, m.Width, "%s: event %d not rendered", name, m.I)
		require.Contains(t, m.Title, run[m.I].Op+" "+run[m.I].Target, "%s: event %d", name, m.I)
		if m.Cycle {
			drawn = append(drawn, m.I)
		}
	}
	require.Equal(t, slices.Compact(cycle), drawn, "%s: the cycle's marks", name)
	require.Equal(t, edges, got.Witness.Edges, "%s: the cycle's arrows", name)
	if len(run) <= html.DefaultLimit {
		require.Len(t, got.Witness.Marks, len(run), "%s: a short run is drawn whole", name)
	} else {
		require.Less(t, len(got.Witness.Marks), len(run), "%s: a long run is drawn around its cycle", name)
	}
}

// checkDrawnGroups: each group shown (at most --max-groups' 20) draws its
// example cycle's events and an arrow per edge, from the last event of
// each transaction to the first of the next (the first transaction's
// first event out, and its last back in), the elided edge apart; a broken
// transaction's path alike, through the stretches of the other threads.
func checkDrawnGroups(t *testing.T, name string, want drawnJSON, got drawnPage) {
	shown := want.shownGroups()
	require.Len(t, got.Groups, len(shown), name)
	for k, g := range got.Groups {
		cyc := shown[k].Cycle
		var lines, drawn []int
		var edges []string
		for i, x := range cyc {
			for _, e := range x.Events {
				lines = append(lines, e.Line)
			}
			if shown[k].Elided > 0 && i+1 == shown[k].ElidedAt {
				continue
			}
			next := cyc[(i+1)%len(cyc)].Events
			from, to := x.Events[len(x.Events)-1], next[0]
			if i == 0 {
				from = x.Events[0]
			}
			if i+1 == len(cyc) {
				to = next[len(next)-1]
			}
			edges = append(edges, fmt.Sprintf("%d-%d", from.Line, to.Line))
		}
		for _, m := range g.Marks {
			require.True(t, m.Cycle, name)
			require.Positive(t, m.Width, name)
			drawn = append(drawn, m.I)
		}
		slices.Sort(lines)
		slices.Sort(drawn)
		require.Equal(t, slices.Compact(lines), drawn, "%s: group %d's marks", name, k+1)
		require.Equal(t, edges, g.Edges, "%s: group %d's arrows", name, k+1)
	}
}

// pageWidth is the browser window's width: a laptop's, wide enough for a
// predicted witness's whole cycle (at 1000 pixels docs/img/html-predict.png
// cut off its second arrow).
const pageWidth = 1400

// screenshot takes the page as shown and checks it is a PNG of the
// window (scripts/docs-img.sh makes the pictures of docs/img).
func screenshot(t *testing.T, ctx context.Context, kind string) {
	t.Helper()
	// The window down to the end of the first picture: small, and enough
	// to see what a page looks like.
	h, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector('figure').getBoundingClientRect().bottom + 16`))
	require.NoError(t, err, kind)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(pageWidth, int64(h))))
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(pageWidth, 640)))
	img, err := png.Decode(bytes.NewReader(shot))
	require.NoError(t, err, "%s: the screenshot is not a PNG", kind)
	require.Equal(t, pageWidth, img.Bounds().Dx(), kind)
	require.Equal(t, int(h), img.Bounds().Dy(), kind)
}
