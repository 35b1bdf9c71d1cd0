package bench

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
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

// powerPoints are engine's points for n = 2, 4, 8, 16 at k threads, with
// states c·n^deg and the same number of milliseconds.
func powerPoints(engine string, k int, c, deg float64) []Point {
	var pts []Point
	for _, n := range []int{2, 4, 8, 16} {
		s := c * math.Pow(float64(n), deg)
		pts = append(pts, Point{Engine: engine, N: n, K: k, Verdict: "serializable", States: int64(s), Time: time.Duration(s * float64(time.Millisecond))})
	}
	return pts
}

func TestWritePlotSVG(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WritePlot(&b, "svg", tinyPoints(), PlotOptions{Title: "chain", Metric: "time"}))
	s := b.String()
	require.Contains(t, s, "<svg")
	require.Contains(t, s, ">profile: ")
	require.Contains(t, s, ">global: ")
	require.NotContains(t, s, ">brute")
	require.Contains(t, s, ">chain<")
	require.Contains(t, s, ">2<", "the measured sizes label the x axis")
	require.Contains(t, s, ">4<")
}

func TestWritePlotPNG(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WritePlot(&b, "png", tinyPoints(), PlotOptions{Metric: "states"}))
	require.True(t, bytes.HasPrefix(b.Bytes(), []byte("\x89PNG\r\n\x1a\n")))
}

// TestPlotLegendHasTheFit: each series' legend entry gives its fitted
// exponent and R², and the x axis says what n counts.
func TestPlotLegendHasTheFit(t *testing.T) {
	pts := append(powerPoints("global", 2, 1, 2), powerPoints("global", 3, 5, 3)...)
	for _, metric := range []string{"states", "time"} {
		var b bytes.Buffer
		require.NoError(t, WritePlot(&b, "svg", pts, PlotOptions{Metric: metric, XLabel: "n = critical sections per thread"}))
		s := b.String()
		require.Contains(t, s, ">global, k=2: n^2.00, R² 1.00<", metric)
		require.Contains(t, s, ">global, k=3: n^3.00, R² 1.00<", metric)
		require.Contains(t, s, ">n = critical sections per thread<", metric)
	}
}

// TestPlotFitCurve: the drawn fit of a power law runs through its points,
// and the fit over k gives the factor per added thread.
func TestPlotFitCurve(t *testing.T) {
	f := fitSeries("global", []float64{2, 4, 8}, []float64{12, 48, 192}, 0, false)
	require.Equal(t, "global: n^2.00, R² 1.00", f.Label)
	require.Len(t, f.Curve, 2)
	require.InDelta(t, 2, f.Curve[0].X, 1e-9)
	require.InDelta(t, 12, f.Curve[0].Y, 1e-9)
	require.InDelta(t, 8, f.Curve[1].X, 1e-9)
	require.InDelta(t, 192, f.Curve[1].Y, 1e-6)
	g := fitSeries("global", []float64{2, 3, 4, 5}, []float64{9, 27, 81, 243}, 0, true)
	require.Equal(t, "global: x3.00 per thread, R² 1.00", g.Label)
	require.InDelta(t, 243, g.Curve[len(g.Curve)-1].Y, 1e-6)
	require.InDelta(t, 9, g.Curve[0].Y, 1e-9)
}

// TestPlotNoFitBelowTheFloor: times under TimeFloor are drawn but not
// fitted, and the legend says so; with enough points above it, those
// are fitted and the legend counts the ones left out.
func TestPlotNoFitBelowTheFloor(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WritePlot(&b, "svg", tinyPoints(), PlotOptions{Metric: "time"}))
	require.Contains(t, b.String(), ">profile: 2 of 2 times under 1ms, not fitted<")
	require.NotContains(t, b.String(), "n^")
	f := fitSeries("profile", []float64{4, 8, 16}, []float64{2, 4, 8}, 2, false)
	require.Equal(t, "profile: n^1.00, R² 1.00 (2 under 1ms left out)", f.Label)
	pts := powerPoints("global", 2, 1, 2)
	for i := range pts {
		pts[i].Time /= 1000 // 4 µs to 256 µs
	}
	b.Reset()
	require.NoError(t, WritePlot(&b, "svg", pts, PlotOptions{Metric: "time"}))
	require.Contains(t, b.String(), ">global: 4 of 4 times under 1ms, not fitted<")
	b.Reset()
	require.NoError(t, WritePlot(&b, "svg", pts, PlotOptions{Metric: "states"}))
	require.Contains(t, b.String(), ">global: n^2.00, R² 1.00<", "states have no floor")
	require.Contains(t, b.String(), ">global time: 4 of 4 times under 1ms, not fitted<")
	require.Equal(t, "global: 2 points, not fitted", fitSeries("global", []float64{2, 4}, []float64{1, 2}, 0, false).Label)
}

// TestPlotOverK: when only k varies, the x axis counts threads and the
// legend gives the factor per added thread.
func TestPlotOverK(t *testing.T) {
	var pts []Point
	for k, s := range map[int]int64{2: 9, 3: 27, 4: 81} {
		pts = append(pts, Point{Engine: "global", N: 8, K: k, Verdict: "violation", States: s, Time: time.Duration(s) * time.Millisecond})
	}
	var b bytes.Buffer
	require.NoError(t, WritePlot(&b, "svg", pts, PlotOptions{Metric: "states", XLabel: "n = writes"}))
	require.Contains(t, b.String(), ">k (threads)<")
	require.Contains(t, b.String(), ">global: x3.00 per thread, R² 1.00<")
}

// svgText matches a text element of gonum's SVG: its baseline (negated:
// the page is flipped), font size and text.
var svgText = regexp.MustCompile(`<text x="[-0-9.e]+" y="([-0-9.e]+)"[^>]*font-size:([0-9.]+)px">([^<]*)</text>`)

// TestLegendNeverOverlaps draws many series (the locked plot's rows once
// crowded into each other, and covered the data): in the SVG, the legend's
// rows are at least a font size apart and all below the axes.
func TestLegendNeverOverlaps(t *testing.T) {
	var pts []Point
	for k := 2; k <= 7; k++ {
		pts = append(pts, powerPoints("global", k, float64(k), float64(k)/2)...)
	}
	p, legend, err := newPlot(pts, PlotOptions{Metric: "states"})
	require.NoError(t, err)
	l := layOut(&legend, plotWidth, plotHeight)
	require.Less(t, l.Legend.Max.Y, l.Axes.Min.Y+1e-9, "the legend is under the axes")
	require.NotNil(t, p)
	var b bytes.Buffer
	require.NoError(t, WritePlot(&b, "svg", pts, PlotOptions{Metric: "states"}))
	var rows []float64
	for _, m := range svgText.FindAllStringSubmatch(b.String(), -1) {
		y, err := strconv.ParseFloat(m[1], 64)
		require.NoError(t, err)
		size, _ := strconv.ParseFloat(m[2], 64)
		if regexp.MustCompile(`^global, k=\d: n\^`).MatchString(m[3]) {
			require.LessOrEqual(t, -y+size, float64(l.Axes.Min.Y), "legend row %q reaches into the axes", m[3])
			rows = append(rows, -y)
		}
	}
	require.Len(t, rows, 6)
	sort.Float64s(rows)
	for i := 1; i < len(rows); i++ {
		require.GreaterOrEqual(t, rows[i]-rows[i-1], 12.0, fmt.Sprintf("legend rows at %v", rows))
	}
}

func TestDefaultTitle(t *testing.T) {
	require.Equal(t, "locked: global", DefaultTitle("locked", []string{"global"}))
	require.Equal(t, "chain: profile, global", DefaultTitle("chain", []string{"profile", "global"}))
}

func TestWritePlotErrors(t *testing.T) {
	var b bytes.Buffer
	require.Error(t, WritePlot(&b, "gif", tinyPoints(), PlotOptions{}))
	f, err := PlotFormat("out/plot.SVG")
	require.NoError(t, err)
	require.Equal(t, "svg", f)
	_, err = PlotFormat("plot.pdf")
	require.Error(t, err)
}

// TestYTicksWithinADecade: a y range inside one decade still has labels.
func TestYTicksWithinADecade(t *testing.T) {
	var labels []string
	for _, tk := range (yTicks{}).Ticks(0.03, 0.3) {
		if tk.Label != "" && tk.Value >= 0.03 && tk.Value <= 0.3 {
			labels = append(labels, tk.Label)
		}
	}
	require.Equal(t, []string{"0.05", "0.1", "0.2"}, labels)
	labels = nil
	for _, tk := range (yTicks{}).Ticks(1, 1000) {
		if tk.Label != "" && tk.Value >= 1 && tk.Value <= 1000 {
			labels = append(labels, tk.Label)
		}
	}
	require.Equal(t, []string{"1", "10", "100", "1000"}, labels)
}

// TestWritePlotNothingToDraw: a sweep with no point to draw still gets its
// plot, empty axes that say why: every decision timed out (or was
// unknown, or skipped), or, on a states plot, the profile engine keeps no
// states.
func TestWritePlotNothingToDraw(t *testing.T) {
	cut := []Point{
		{Engine: "global", N: 2, K: 2, Verdict: "timeout", States: 1, Time: time.Second},
		{Engine: "global", N: 4, K: 2, Verdict: "timeout", States: 1, Time: time.Second},
		{Engine: "brute", N: 2, K: 2, Verdict: "unknown", Time: time.Millisecond},
		{Engine: "profile", N: 2, K: 2, Skipped: "unsupported"},
	}
	for _, format := range []string{"svg", "png"} {
		var b bytes.Buffer
		require.NoError(t, WritePlot(&b, format, cut, PlotOptions{Title: "chain"}), format)
		require.NotZero(t, b.Len())
	}
	var b bytes.Buffer
	require.NoError(t, WritePlot(&b, "svg", cut, PlotOptions{Title: "chain"}))
	require.Contains(t, b.String(), ">chain<")
	require.Contains(t, b.String(), ">nothing to plot: no decision finished<")
	require.Contains(t, b.String(), ">(2 timed out, 1 unknown, 1 skipped; see the table)<")

	b.Reset()
	none := []Point{{Engine: "profile", N: 2, K: 2, Verdict: "violation"}, {Engine: "profile", N: 4, K: 2, Verdict: "violation"}}
	require.NoError(t, WritePlot(&b, "svg", none, PlotOptions{Metric: "states"}))
	require.Contains(t, b.String(), ">nothing to plot: no finished decision has a positive states or time<")
	b.Reset()
	require.NoError(t, WritePlot(&b, "svg", none, PlotOptions{Metric: "time"}))
	require.Contains(t, b.String(), ">nothing to plot: no finished decision has a positive time<")
	b.Reset()
	require.NoError(t, WritePlot(&b, "svg", nil, PlotOptions{}))
	require.Contains(t, b.String(), ">nothing to plot: the sweep has no points<")
}

// TestPlotDefaultsToStatesWithTime: the default y axis is the engine's
// counted work, exact on any machine; each series' times are drawn beside
// it as a second, dotted series with their own fit, in µs; a profile
// series without states still shows its times.
func TestPlotDefaultsToStatesWithTime(t *testing.T) {
	pts := append(powerPoints("global", 2, 1, 2), tinyPoints()[:2]...)
	var b bytes.Buffer
	require.NoError(t, WritePlot(&b, "svg", pts, PlotOptions{}))
	s := b.String()
	require.Contains(t, s, ">states; time in µs, dotted<")
	require.Contains(t, s, ">global: n^2.00, R² 1.00<", "the states' fit")
	require.Contains(t, s, ">global time: n^2.00, R² 1.00<", "the times' fit")
	require.Contains(t, s, ">profile time: 2 of 2 times under 1ms, not fitted<")
	require.NotContains(t, s, ">profile: ", "the profile engine keeps no states")
	b.Reset()
	require.NoError(t, WritePlot(&b, "svg", pts, PlotOptions{Metric: "time"}))
	require.Contains(t, b.String(), ">time (ms)<")
	require.NotContains(t, b.String(), " time: ", "a time plot draws times alone")
}
