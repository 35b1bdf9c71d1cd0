package bench

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// PlotOptions label a plot.
type PlotOptions struct {
	Title  string
	XLabel string // what the x axis counts (default: n, or k when only k varies)
	Metric string // "time" (default) or "states"
}

// WritePlot draws the measured points on log-log axes, one labelled line
// (with point markers) per engine and thread count, and writes it as SVG
// or PNG (format "svg" or "png"; PlotFormat picks it from a file name).
// Against n a polynomial is a straight line whose slope is its degree;
// when only k varies, the x axis is k.
func WritePlot(w io.Writer, format string, points []Point, o PlotOptions) error {
	p, err := newPlot(points, o)
	if err != nil {
		return err
	}
	wt, err := p.WriterTo(6*vg.Inch, 4*vg.Inch, format)
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
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

func newPlot(points []Point, o PlotOptions) (*plot.Plot, error) {
	overK := varies(points, func(p Point) int { return p.K }) && !varies(points, func(p Point) int { return p.N })
	x := func(pt Point) float64 { return float64(pt.N) }
	if o.XLabel == "" {
		o.XLabel = "n"
	}
	if overK {
		x = func(pt Point) float64 { return float64(pt.K) }
		if o.XLabel == "n" {
			o.XLabel = "k (threads)"
		}
	}
	y, yLabel := func(pt Point) float64 { return pt.Time.Seconds() * 1000 }, "time (ms)"
	if o.Metric == "states" {
		y, yLabel = func(pt Point) float64 { return float64(pt.States) }, "states"
	}
	p := plot.New()
	p.Title.Text = o.Title
	p.X.Label.Text, p.Y.Label.Text = o.XLabel, yLabel
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = xTicks(points, x), plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	drawn := 0
	for i, s := range seriesOf(points, overK) {
		var xys plotter.XYs
		for _, pt := range s.points {
			if vx, vy := x(pt), y(pt); vx > 0 && vy > 0 {
				xys = append(xys, plotter.XY{X: vx, Y: vy})
			}
		}
		if len(xys) == 0 {
			continue // nothing with a logarithm: no line
		}
		line, dots, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		line.Color, dots.Color = plotutil.Color(i), plotutil.Color(i)
		line.Dashes, dots.Shape = plotutil.Dashes(i), plotutil.Shape(i)
		p.Add(line, dots)
		p.Legend.Add(s.label, line, dots)
		drawn++
	}
	if drawn == 0 {
		return nil, fmt.Errorf("plot: no point has a positive %s to draw", yLabel)
	}
	return p, nil
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
