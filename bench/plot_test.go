package bench

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func tinyPoints() []Point {
	return []Point{
		{Engine: "profile", N: 2, K: 2, Verdict: "violation", Time: 10 * time.Microsecond},
		{Engine: "profile", N: 4, K: 2, Verdict: "violation", Time: 20 * time.Microsecond},
		{Engine: "global", N: 2, K: 2, Verdict: "violation", States: 4, Time: 40 * time.Microsecond},
		{Engine: "global", N: 4, K: 2, Verdict: "violation", States: 16, Time: 160 * time.Microsecond},
		{Engine: "brute", N: 4, K: 2, Skipped: "unsupported"},
	}
}

func TestWritePlotSVG(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WritePlot(&b, "svg", tinyPoints(), PlotOptions{Title: "chain"}))
	s := b.String()
	require.Contains(t, s, "<svg")
	require.Contains(t, s, ">profile<")
	require.Contains(t, s, ">global<")
	require.NotContains(t, s, ">brute<")
	require.Contains(t, s, ">chain<")
	require.Contains(t, s, ">2<", "the measured sizes label the x axis")
	require.Contains(t, s, ">4<")
}

func TestWritePlotPNG(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WritePlot(&b, "png", tinyPoints(), PlotOptions{Metric: "states"}))
	require.True(t, bytes.HasPrefix(b.Bytes(), []byte("\x89PNG\r\n\x1a\n")))
}

// TestWritePlotLabelsPerK checks one line per engine and thread count.
func TestWritePlotLabelsPerK(t *testing.T) {
	pts := append(tinyPoints(), Point{Engine: "global", N: 2, K: 3, Verdict: "violation", Time: time.Millisecond},
		Point{Engine: "global", N: 4, K: 3, Verdict: "violation", Time: 8 * time.Millisecond})
	var b bytes.Buffer
	require.NoError(t, WritePlot(&b, "svg", pts, PlotOptions{}))
	require.Contains(t, b.String(), ">global, k=3<")
	require.Contains(t, b.String(), ">global, k=2<")
}

func TestWritePlotErrors(t *testing.T) {
	var b bytes.Buffer
	// The profile engine keeps no states: nothing to draw on a states plot.
	require.Error(t, WritePlot(&b, "svg", tinyPoints()[:2], PlotOptions{Metric: "states"}))
	require.Error(t, WritePlot(&b, "gif", tinyPoints(), PlotOptions{}))
	f, err := PlotFormat("out/plot.SVG")
	require.NoError(t, err)
	require.Equal(t, "svg", f)
	_, err = PlotFormat("plot.pdf")
	require.Error(t, err)
}
