package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/browsertest"
	"github.com/conc-dev/conc/report/html"
	"github.com/conc-dev/conc/serve"
)

// browser is one headless Chromium (internal/browsertest), with a bound on
// the whole session so that a hung browser fails the test instead of
// hanging it (not a timing assertion).
func browser(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(browsertest.Start(t, 1400, 1000), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// TestPlaygroundInBrowser: a learner's use of the page in a real browser:
// every example checked through the page shows the verdict conc check's
// JSON has, with the engine's sentence and the profiles; a violation's
// witness frame names its cycle; the lab draws its plot.
func TestPlaygroundInBrowser(t *testing.T) {
	ctx := browser(t)
	docs, err := filepath.Abs("../../docs")
	require.NoError(t, err)
	srv := httptest.NewServer(examplesPlayground())
	defer srv.Close()
	t.Chdir("../../examples") // the CLI names each file as the page does
	exs, err := serve.Examples()
	require.NoError(t, err)

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(`body[data-ready="true"]`)))
	// The chosen example (Figure 1) is checked on load: a verdict, not a
	// blank until Check.
	first := cliAnswer(t, exs[0].Name).Verdict
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#verdict[data-verdict="`+first+`"]`),
		chromedp.WaitVisible(`#profiles:not(:empty)`)), "no verdict on load")
	for i, ex := range exs {
		cli := cliAnswer(t, ex.Name)
		want := cli.Verdict
		require.NoError(t, chromedp.Do(ctx,
			choose("#example", ex.Name),
			chromedp.Click("#check"),
			chromedp.WaitVisible(`#verdict[data-verdict="`+want+`"], #verdict[data-verdict="error"]`),
			chromedp.WaitVisible(`#profiles:not(:empty)`),
		), ex.Name)
		var shown struct{ Verdict, Why, Profiles string }
		require.NoError(t, json.Unmarshal([]byte(text(t, ctx, `JSON.stringify({
			verdict: document.getElementById("verdict").dataset.verdict,
			why: document.getElementById("why").textContent,
			profiles: document.getElementById("profiles").textContent})`)), &shown))
		require.Equal(t, want, shown.Verdict, "%d: %s", i, ex.Name)
		require.NotEmpty(t, shown.Why, ex.Name)
		prof := conc("profiles", ex.Name)
		require.Equal(t, prof.stdout, shown.Profiles, ex.Name)
		if want == "violation" {
			frame, err := chromedp.Run(ctx, chromedp.Poll[string](
				`(() => { const b = document.getElementById("timeline").contentDocument.body;
				          return b && b.innerText.toLowerCase().includes("conflict cycle") ? b.innerText : null })()`,
				chromedp.WithPollingTimeout(20*time.Second)))
			require.NoError(t, err, ex.Name)
			require.Contains(t, strings.ToLower(frame), "conflict cycle", ex.Name)
			// The frame is as tall as its page: every lane in sight
			// without scrolling inside it.
			_, err = chromedp.Run(ctx, chromedp.Poll[bool](
				`(() => { const f = document.getElementById("timeline");
				          return f.clientHeight >= f.contentDocument.documentElement.scrollHeight || null })()`,
				chromedp.WithPollingTimeout(5*time.Second)))
			require.NoError(t, err, "%s: the witness frame scrolls", ex.Name)
			// The drawing: a mark per event of the JSON's run, an arrow
			// per pair of its cycle.
			var drawn struct {
				Events int
				Edges  []string
			}
			require.NoError(t, json.Unmarshal([]byte(text(t, ctx, `(() => {
				const d = document.getElementById("timeline").contentDocument;
				return JSON.stringify({events: d.querySelectorAll("[data-event]").length,
					edges: [...d.querySelectorAll("[data-edge]")].map(e => e.dataset.edge)}) })()`)), &drawn))
			// A run longer than html.DefaultLimit is drawn around its
			// cycle: fewer marks, the cycle's among them (TestHTMLInBrowser
			// checks which).
			if n := len(cli.Witness.Run); n <= html.DefaultLimit {
				require.Equal(t, n, drawn.Events, ex.Name)
			} else {
				require.Less(t, drawn.Events, n, ex.Name)
				require.GreaterOrEqual(t, drawn.Events, len(cli.Witness.Cycle), ex.Name)
			}
			var edges []string
			for _, c := range cli.Witness.Cycle {
				edges = append(edges, fmt.Sprintf("%d-%d", c.From, c.To))
			}
			require.Equal(t, edges, drawn.Edges, ex.Name)
		}
		if ex.Name == "fig1.conc" {
			playgroundShot(t, ctx, docs, "playground.png")
			witnessInView(t, ctx)
		}
	}

	// A bad program: conc check's static errors, each with its position.
	bad := "thread A { atomic { read x } }\nthread B { frob y }\nthread A { }\n"
	var cli bytes.Buffer
	require.Equal(t, exitUsage, run([]string{"check", "-"}, strings.NewReader(bad), io.Discard, &cli))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue("#source", bad),
		ignore(chromedp.Evaluate[bool](`document.getElementById("source").dispatchEvent(new Event("input"))`)),
		chromedp.Click("#check"),
		chromedp.WaitVisible(`#verdict[data-verdict="error"]`),
		chromedp.WaitVisible(`#errors li[data-line]`),
	))
	// A typed program is named input.conc, not after the example chosen
	// last, and the first error's line is marked in the editor.
	require.Equal(t, strings.ReplaceAll(cli.String(), "<stdin>", "input.conc"),
		text(t, ctx, `[...document.querySelectorAll("#errors li")].map(li => li.textContent + "\n").join("")`))
	require.Equal(t, text(t, ctx, `document.querySelector("#errors li[data-line]").dataset.line`),
		text(t, ctx, `(() => { const b = document.getElementById("error-line"); return b.hidden ? "hidden" : b.dataset.line })()`))
	playgroundShot(t, ctx, docs, "errors.png")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click("#tab-lab"),
		choose("#family", "chain"),
		chromedp.SetValue("#sizes", "1,2,4,8"),
		chromedp.SetValue("#metric", "states"),
		chromedp.Click("#run"),
		chromedp.WaitVisible("#plot svg"),
	))
	require.Regexp(t, `global\s+states ~ n\^`, text(t, ctx, `document.getElementById("fits").textContent`))
	playgroundShot(t, ctx, docs, "lab.png")
}

// choose selects value in the <select> sel as a learner does: the page
// hears the change.
func choose(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.SetValue(sel, value),
		ignore(chromedp.Evaluate[bool](`document.querySelector("`+sel+`").dispatchEvent(new Event("change"))`)))
}

// ignore drops an action's value, for chromedp.Do.
func ignore[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}

// text evaluates a JavaScript expression of the page that gives a string.
func text(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	require.NoError(t, err, expr)
	return s
}

// cliJSON is the part of conc check --format json the page shows.
type cliJSON struct {
	Verdict string
	Witness struct {
		Run   []json.RawMessage
		Cycle []struct{ From, To int }
	}
}

// cliAnswer is conc check --format json's answer for an example.
func cliAnswer(t *testing.T, name string) cliJSON {
	t.Helper()
	o := cliCheck(name)
	var r cliJSON
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &r), o.stdout+o.stderr)
	return r
}

// playgroundShot takes the page as it is; with CONC_SCREENSHOTS=1 it is
// kept in docs/img/ as playground-NAME (docs/playground.md shows them), so
// that a test run does not rewrite the repository's images.
func playgroundShot(t *testing.T, ctx context.Context, docs, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100: PNG, not JPEG
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")), "not a PNG")
	require.Greater(t, len(png), 10_000, "an empty screenshot")
	if os.Getenv("CONC_SCREENSHOTS") == "1" {
		require.NoError(t, os.WriteFile(filepath.Join(docs, "img", "playground-"+name), png, 0o644))
	}
}

// witnessInView: in a screenshot of the window, the witness frame's cycle
// marks, arrows and labels lie inside it, and each cycle mark is drawn
// where the page says it is (the pixel at its centre is its dark fill,
// not the light background).
func witnessInView(t *testing.T, ctx context.Context) {
	t.Helper()
	var drawn struct {
		Width, Height int
		Outside       []string
		Marks         [][2]float64
	}
	require.NoError(t, json.Unmarshal([]byte(text(t, ctx, `(() => {
		const f = document.getElementById("timeline"), at = f.getBoundingClientRect();
		const d = f.contentDocument, out = [], marks = [];
		for (const e of d.querySelectorAll(".event.cycle, [data-edge], .edge-label")) {
			const r = e.getBoundingClientRect();
			const l = at.left + f.clientLeft + r.left, t = at.top + f.clientTop + r.top;
			if (r.width === 0 || l < 0 || t < 0 || l + r.width > innerWidth || t + r.height > innerHeight)
				out.push((e.dataset.event || e.dataset.edge || e.textContent) + " at " + [l, t].map(Math.round));
		}
		for (const c of d.querySelectorAll(".event.cycle circle")) {
			const r = c.getBoundingClientRect();
			marks.push([at.left + f.clientLeft + r.left + r.width / 2, at.top + f.clientTop + r.top + r.height / 2]);
		}
		return JSON.stringify({width: innerWidth, height: innerHeight, outside: out, marks: marks}) })()`)), &drawn))
	require.Empty(t, drawn.Outside, "the witness's cycle outside the %dx%d window", drawn.Width, drawn.Height)
	require.NotEmpty(t, drawn.Marks, "no cycle mark in the witness frame")
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(shot))
	require.NoError(t, err)
	require.Equal(t, drawn.Width, img.Bounds().Dx())
	require.Equal(t, drawn.Height, img.Bounds().Dy())
	for _, m := range drawn.Marks {
		r, g, b, _ := img.At(int(m[0]), int(m[1])).RGBA()
		require.Less(t, min(r, g, b)>>8, uint32(0x80), "the cycle mark at %v is not drawn in the screenshot", m)
	}
}
