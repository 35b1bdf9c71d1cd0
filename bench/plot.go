package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotOptions label a plot.
type PlotOptions struct {
	Title  string // DefaultTitle makes the usual one
	XLabel string // what n counts (default: n); "k (threads)" when only k varies
	// Metric is the y axis: "states" (the default), the engine's counted
	// work, exact on any machine, with each series' time (µs) drawn too,
	// dotted; or "time" alone (ms).
	Metric string
}

// WritePlot draws the measured points on log-log axes, one series (point
// markers in one colour) per engine and thread count, each with its fitted
// line (on a states plot, its times as a second, dotted series of the same
// colour) and, in the legend, the fit (`global: n^1.95, R² 1.00`, or the
// factor per added thread when only k varies). It writes SVG or PNG
// (format "svg" or "png"; PlotFormat picks it from a file name). Against n
// a polynomial is a straight line whose slope is its degree. The legend
// sits under the axes, one row per series, so that it never covers a
// point or a line, however many series there are.
// A sweep with no point to draw gets empty axes that say why (emptyPlot).
func WritePlot(w io.Writer, format string, points []Point, o PlotOptions) error {
	p, legend, err := newPlot(points, o)
	if err != nil {
		return err
	}
	l := layOut(&legend, plotWidth, plotHeight)
	c, err := draw.NewFormattedCanvas(plotWidth, l.Height, format)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	dc.SetColor(color.White) // the page, legend strip included
	dc.Fill(dc.Rectangle.Path())
	p.BackgroundColor = nil
	p.Draw(draw.Crop(dc, 0, 0, l.Legend.Max.Y, 0))
	legend.Draw(draw.Canvas{Canvas: dc.Canvas, Rectangle: l.Legend})
	_, err = c.WriteTo(w)
	return err
}

// The size of a plot's axes; the legend adds to the height.
const (
	plotWidth  = 6 * vg.Inch
	plotHeight = 4 * vg.Inch
)

// layout is where WritePlot puts a plot's parts: the axes (with title and
// labels) above, the legend below, in a page Height high.
type layout struct {
	Axes, Legend vg.Rectangle
	Row          vg.Length // the height of one legend row, padding included
	Height       vg.Length
}

// layOut sizes the legend for its rows (padding each by half its font
// size, so that rows never touch: gonum's default is no padding) and puts
// it under axes of w by h.
func layOut(legend *plot.Legend, w, h vg.Length) layout {
	legend.Top, legend.Left = true, true
	legend.Padding = legend.TextStyle.Font.Size / 2
	r := legend.Rectangle(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}})
	margin := legend.TextStyle.Font.Size / 2
	lh := r.Size().Y + 2*margin
	rows := vg.Length(max(1, legendRows(legend, w)))
	return layout{
		Axes:   vg.Rectangle{Min: vg.Point{Y: lh}, Max: vg.Point{X: w, Y: lh + h}},
		Legend: vg.Rectangle{Min: vg.Point{X: margin, Y: margin}, Max: vg.Point{X: w - margin, Y: lh - margin}},
		Row:    (r.Size().Y + legend.Padding) / rows,
		Height: lh + h,
	}
}

// legendRows counts a legend's entries (gonum does not export them): the
// height of its rectangle grows by a row and a padding per entry.
func legendRows(legend *plot.Legend, w vg.Length) int {
	c := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: w}}}
	one := plot.NewLegend()
	one.TextStyle, one.Padding = legend.TextStyle, legend.Padding
	one.Add("Ag")
	row := one.Rectangle(c).Size().Y + legend.Padding
	return int((legend.Rectangle(c).Size().Y+legend.Padding)/row + 0.5)
}

// DefaultTitle is a plot's title when none is given: the family and the
// engines that decided it.
func DefaultTitle(family string, engines []string) string {
	return family + ": " + strings.Join(engines, ", ")
}

func newPlot(points []Point, o PlotOptions) (*plot.Plot, plot.Legend, error) {
	legend := plot.NewLegend()
	overK := varies(points, func(p Point) int { return p.K }) && !varies(points, func(p Point) int { return p.N })
	x := func(pt Point) float64 { return float64(pt.N) }
	if o.XLabel == "" {
		o.XLabel = "n"
	}
	if overK {
		x = func(pt Point) float64 { return float64(pt.K) }
		o.XLabel = "k (threads)"
	}
	states := o.Metric != "time"
	y, yLabel, what := func(pt Point) float64 { return pt.Time.Seconds() * 1000 }, "time (ms)", "time"
	if states {
		y, yLabel, what = func(pt Point) float64 { return float64(pt.States) }, "states; time in µs, dotted", "states or time"
	}
	p := plot.New()
	p.Title.Text = o.Title
	p.X.Label.Text, p.Y.Label.Text = o.XLabel, yLabel
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = xTicks(points, x), yTicks{}
	drawn := 0
	all := seriesOf(points, overK)
	micros := func(pt Point) float64 { return pt.Time.Seconds() * 1e6 }
	for i, s := range all {
		lines := []seriesLine{{s.label, y, !states, lineStyle(i, false)}}
		if states {
			lines = append(lines, seriesLine{s.label + " time", micros, true, lineStyle(i+len(all), true)})
			lines[1].style.color = lines[0].style.color
		}
		for _, l := range lines {
			xys, fxs, fys, below := s.coords(x, l.y, l.isTime)
			if len(xys) == 0 {
				continue // nothing with a logarithm: no line
			}
			if err := addSeries(p, &legend, l.style, xys, fitSeries(l.label, fxs, fys, below, overK)); err != nil {
				return nil, legend, err
			}
			drawn++
		}
	}
	if drawn == 0 {
		p, err := emptyPlot(p, points, what)
		return p, legend, err
	}
	return p, legend, nil
}

// seriesLine is one line drawn for a series: states or times.
type seriesLine struct {
	label  string
	y      func(Point) float64
	isTime bool
	style  style
}

// style is a line's look: its colour, marker shape and dashes (nil dashes
// on a fitted line: plotutil's i-th).
type style struct {
	color  color.Color
	shape  draw.GlyphDrawer
	dashes []vg.Length
	dotted bool // a time beside states: dotted whether fitted or not
}

func lineStyle(i int, dotted bool) style {
	return style{color: plotutil.Color(i), shape: plotutil.Shape(i), dashes: plotutil.Dashes(i), dotted: dotted}
}

// coords are the series' points to draw (those with a logarithm) and,
// among them, those to fit: for times, only those at TimeFloor or more
// (below counts the others).
func (s series1) coords(x, y func(Point) float64, isTime bool) (xys plotter.XYs, fxs, fys []float64, below int) {
	for _, pt := range s.points {
		vx, vy := x(pt), y(pt)
		if vx <= 0 || vy <= 0 {
			continue
		}
		xys = append(xys, plotter.XY{X: vx, Y: vy})
		if isTime && pt.Time < TimeFloor {
			below++
			continue
		}
		fxs, fys = append(fxs, vx), append(fys, vy)
	}
	return xys, fxs, fys, below
}

// addSeries draws a series: its points as markers and its fitted curve as
// a line, or, unfitted, a thin dotted line joining the points.
func addSeries(p *plot.Plot, legend *plot.Legend, st style, xys plotter.XYs, f seriesFit) error {
	dots, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	dots.Color, dots.Shape = st.color, st.shape
	curve, dashes := f.Curve, st.dashes
	if curve == nil || st.dotted {
		dashes = []vg.Length{vg.Points(1), vg.Points(3)}
	}
	if curve == nil {
		curve = xys
	}
	line, err := plotter.NewLine(curve)
	if err != nil {
		return err
	}
	line.Color, line.Dashes = st.color, dashes
	p.Add(line, dots)
	legend.Add(f.Label, line, dots)
	return nil
}

// xTicks labels the measured x values when there are few of them (log
// ticks label only powers of ten, and sizes are usually powers of two).
func xTicks(points []Point, x func(Point) float64) plot.Ticker {
	seen := map[float64]bool{}
	var ticks valueTicks
	for _, pt := range points {
		if v := x(pt); pt.Measured() && v > 0 && !seen[v] {
			seen[v] = true
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		}
	}
	if len(ticks) > 12 {
		return plot.LogTicks{Prec: -1}
	}
	sort.Slice(ticks, func(i, j int) bool { return ticks[i].Value < ticks[j].Value })
	return ticks
}

// yTicks are log ticks that label 2 and 5 times the powers of ten too
// when fewer than two powers of ten fall in the range (gonum's label only
// those, so a range within a decade had no labels at all).
type yTicks struct{}

func (yTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	labelled := 0
	for _, t := range ts {
		if t.Label != "" && t.Value >= lo && t.Value <= hi {
			labelled++
		}
	}
	if labelled >= 2 {
		return ts
	}
	ts = nil
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for m := 1; m <= 9; m++ {
			t := plot.Tick{Value: float64(m) * math.Pow(10, e)}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(t.Value, 'g', 3, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// valueTicks are fixed, labelled ticks.
type valueTicks []plot.Tick

func (t valueTicks) Ticks(_, _ float64) []plot.Tick { return t }

type series1 struct {
	label  string
	points []Point
}

// seriesOf groups the measured points into lines: per engine, and per
// thread count when several are measured against n.
func seriesOf(points []Point, overK bool) []series1 {
	perK := !overK && varies(points, func(p Point) int { return p.K })
	idx := map[string]int{}
	var out []series1
	for _, pt := range points {
		if !pt.Measured() {
			continue
		}
		label := pt.Engine
		if perK {
			label = fmt.Sprintf("%s, k=%d", pt.Engine, pt.K)
		}
		i, ok := idx[label]
		if !ok {
			i = len(out)
			idx[label] = i
			out = append(out, series1{label: label})
		}
		out[i].points = append(out[i].points, pt)
	}
	for _, s := range out {
		sort.Slice(s.points, func(a, b int) bool { return s.points[a].N*1000+s.points[a].K < s.points[b].N*1000+s.points[b].K })
	}
	return out
}

// varies reports whether f takes two values over the measured points.
func varies(points []Point, f func(Point) int) bool {
	seen := map[int]bool{}
	for _, p := range points {
		if p.Measured() {
			seen[f(p)] = true
		}
	}
	return len(seen) > 1
}

// PlotFormat is the plot format for a file name: svg or png.
func PlotFormat(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".svg", ".png":
		return ext[1:], nil
	default:
		return "", fmt.Errorf("--plot %s: want a .svg or .png file", path)
	}
}
