package bench

import (
	"fmt"
	"math"
	"time"

	"gonum.org/v1/plot/plotter"
)

// TimeFloor is the shortest time conc bench fits. The monotonic clock
// reads nanoseconds on Linux, but a coarse clock (Windows ticks at 0.5 to
// 15.6 ms; a CI machine's thread clock once read 0 s for a whole test)
// cannot tell a 100 µs decision from a 1 ms one, and on a shared machine a
// time slice of another process is a millisecond or more. Below the floor a
// time measures the clock and the scheduler, not the algorithm; the fits
// leave such points out and say so.
const TimeFloor = time.Millisecond

// seriesFit is the fit drawn through one series of a plot: the label of
// its legend entry and, if it was fitted, the curve to draw.
type seriesFit struct {
	Label string
	Curve plotter.XYs // nil: not fitted (the label says why)
}

// fitSeries fits the points (xs[i], ys[i]) of the series named label: a
// power law n^e on log-log axes, or, when the x axis counts threads
// (overK), the factor per added thread (y = c·b^k). below counts the
// points left out because their time is under TimeFloor; they are drawn
// but not fitted.
func fitSeries(label string, xs, ys []float64, below int, overK bool) seriesFit {
	switch {
	case len(xs) < minFitPoints && below > 0:
		return seriesFit{Label: fmt.Sprintf("%s: %d of %d times under %s, not fitted", label, below, below+len(xs), FormatDuration(TimeFloor))}
	case len(xs) < minFitPoints:
		return seriesFit{Label: fmt.Sprintf("%s: %d points, not fitted", label, len(xs))}
	}
	lo, hi := span(xs)
	if lo == hi {
		return seriesFit{Label: label + ": one size, not fitted"}
	}
	note := ""
	if below > 0 {
		note = fmt.Sprintf(" (%d under %s left out)", below, FormatDuration(TimeFloor))
	}
	if overK {
		b, l, err := Base(xs, ys)
		if err != nil {
			return seriesFit{Label: label + ": not fitted"}
		}
		var curve plotter.XYs
		const steps = 16 // an exponential is a curve on log-log axes
		for i := 0; i <= steps; i++ {
			x := lo + (hi-lo)*float64(i)/steps
			curve = append(curve, plotter.XY{X: x, Y: math.Exp(l.Intercept + l.Slope*x)})
		}
		return seriesFit{Label: fmt.Sprintf("%s: x%.2f per thread, R² %.2f%s", label, b, l.R2, note), Curve: curve}
	}
	l, err := Exponent(xs, ys)
	if err != nil {
		return seriesFit{Label: label + ": not fitted"}
	}
	at := func(x float64) plotter.XY { return plotter.XY{X: x, Y: math.Exp(l.Intercept) * math.Pow(x, l.Slope)} }
	return seriesFit{Label: fmt.Sprintf("%s: n^%.2f, R² %.2f%s", label, l.Slope, l.R2, note), Curve: plotter.XYs{at(lo), at(hi)}}
}

// span is the least and the greatest of xs (not empty).
func span(xs []float64) (lo, hi float64) {
	lo, hi = xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}
