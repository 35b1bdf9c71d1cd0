package bench

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// emptyPlot is the plot of a sweep with nothing to draw (every decision
// timed out, say): its axes, labelled as usual, and in their middle why
// they are empty, so that the sweep's table and plot are still written
// (conc bench exits 0, the lab answers 200).
func emptyPlot(p *plot.Plot, points []Point, what string) (*plot.Plot, error) {
	p.X.Scale, p.Y.Scale = plot.LinearScale{}, plot.LinearScale{}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(nil), plot.ConstantTicks(nil)
	why, err := plotter.NewLabels(plotter.XYLabels{
		XYs:    plotter.XYs{{X: 0.5, Y: 0.5}},
		Labels: []string{whyEmpty(points, what)},
	})
	if err != nil {
		return nil, err
	}
	why.TextStyle[0].XAlign, why.TextStyle[0].YAlign = draw.XCenter, draw.YCenter
	p.Add(why)
	return p, nil
}

// whyEmpty says why no point is drawn: how many decisions timed out, were
// unknown or were skipped, or that the finished ones have no positive
// value of what is drawn.
func whyEmpty(points []Point, what string) string {
	if len(points) == 0 {
		return "nothing to plot: the sweep has no points"
	}
	var timedOut, unknown, skipped, measured int
	for _, pt := range points {
		switch {
		case pt.Skipped != "":
			skipped++
		case pt.Verdict == "timeout":
			timedOut++
		case pt.Verdict == "unknown":
			unknown++
		default:
			measured++
		}
	}
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{timedOut, "timed out"}, {unknown, "unknown"}, {skipped, "skipped"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if measured == 0 {
		return "nothing to plot: no decision finished\n(" + strings.Join(parts, ", ") + "; see the table)"
	}
	return fmt.Sprintf("nothing to plot: no finished decision has a positive %s", what)
}
