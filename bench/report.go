package bench

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteTable writes the points as an aligned table, one line each: the
// size n and thread count k of the sweep, the generated program's threads,
// the verdict, the engine's states, the time and the memory allocated.
func WriteTable(w io.Writer, points []Point) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "engine\tn\tk\tthreads\tverdict\tstates\ttime\tmemory\t")
	for _, p := range points {
		if p.Skipped != "" {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\tskipped\t-\t-\t-\t  (%s)\n", p.Engine, p.N, p.K, p.Threads, p.Skipped)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%d\t%s\t%s\t\n", p.Engine, p.N, p.K, p.Threads, p.Verdict, p.States,
			FormatDuration(p.Time), FormatBytes(p.Alloc))
	}
	return tw.Flush()
}

// FormatDuration prints d with three significant digits in a unit that
// keeps it between 1 and 1000.
func FormatDuration(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.3gµs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.3gms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.3gs", d.Seconds())
}

// FormatBytes prints b in B, KB, MB or GB (powers of 1024).
func FormatBytes(b uint64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%dB", b)
	}
	v, u := float64(b), 0
	for v >= unit && u < 3 {
		v /= unit
		u++
	}
	return fmt.Sprintf("%.3g%cB", v, "KMGT"[u-1])
}

// Growth is one fitted exponent: how Metric (time or states) of Engine
// grows with Var (n or k) while the other stays at Fixed.
type Growth struct {
	Engine string
	Metric string // "time" or "states"
	Var    string // "n" or "k"
	Fixed  int    // the value of the other one
	Line   Line   // log-log fit: Slope is the exponent; N == 0: not fitted
	Base   float64
	Below  int // times under TimeFloor, left out of the fit
	Points int // the measured points of the series, Below included
}

// Fitted reports whether g has a fit; if not, its times were too short
// (Below of them under TimeFloor) to leave three points.
func (g Growth) Fitted() bool { return g.Line.N > 0 }

// minFitPoints is the fewest points a fit is reported for: a line through
// two points always fits, so it says nothing about the shape of growth.
const minFitPoints = 3

// Fits fits every growth the points allow: in n for each engine and k
// with three or more measured sizes, and in k for each engine and n with
// three or more thread counts (there also the factor per added thread,
// Base, from a semi-log fit, since n^k is exponential in k). States are
// fitted only for engines that count them; times only from TimeFloor up
// (a series whose times fall under it is listed as not fitted).
func Fits(points []Point) []Growth {
	type key struct {
		engine string
		fixed  int
	}
	byK, byN := map[key][]Point{}, map[key][]Point{}
	for _, p := range points {
		if p.Measured() {
			byK[key{p.Engine, p.K}] = append(byK[key{p.Engine, p.K}], p)
			byN[key{p.Engine, p.N}] = append(byN[key{p.Engine, p.N}], p)
		}
	}
	var out []Growth
	add := func(groups map[key][]Point, v string, x func(Point) float64) {
		for kk, ps := range groups {
			for _, metric := range []string{"time", "states"} {
				xs, ys, below := series(ps, x, metric)
				g := Growth{Engine: kk.engine, Metric: metric, Var: v, Fixed: kk.fixed, Below: below, Points: len(ps)}
				l, err := Exponent(xs, ys)
				if err != nil || l.N < minFitPoints {
					if below > 0 && len(ps) >= minFitPoints {
						out = append(out, g) // say why there is no fit
					}
					continue
				}
				g.Line = l
				if v == "k" {
					g.Base, _, _ = Base(xs, ys)
				}
				out = append(out, g)
			}
		}
	}
	add(byK, "n", func(p Point) float64 { return float64(p.N) })
	add(byN, "k", func(p Point) float64 { return float64(p.K) })
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Var != b.Var {
			return a.Var < b.Var
		}
		if a.Engine != b.Engine {
			return a.Engine < b.Engine
		}
		if a.Fixed != b.Fixed {
			return a.Fixed < b.Fixed
		}
		return a.Metric > b.Metric // time first
	})
	return out
}

// series is the (x, metric) pairs of ps; a metric of zero has no logarithm
// and is left out by the fits, and so is a time under TimeFloor (below
// counts those).
func series(ps []Point, x func(Point) float64, metric string) (xs, ys []float64, below int) {
	for _, p := range ps {
		switch {
		case metric == "states":
			xs, ys = append(xs, x(p)), append(ys, float64(p.States))
		case p.Time < TimeFloor:
			below++
		default:
			xs, ys = append(xs, x(p)), append(ys, p.Time.Seconds())
		}
	}
	return xs, ys, below
}

// WriteFits writes one line per fitted growth.
func WriteFits(w io.Writer, gs []Growth) error {
	var b strings.Builder
	for _, g := range gs {
		other := "k"
		if g.Var == "k" {
			other = "n"
		}
		fixed := fmt.Sprintf("%s=%d, ", other, g.Fixed)
		if g.Fixed == 0 { // a family without a thread count (np)
			fixed = ""
		}
		if !g.Fitted() {
			fmt.Fprintf(&b, "%-8s %-6s not fitted: %s%d of %d times under %s\n", g.Engine, g.Metric, fixed, g.Below, g.Points, FormatDuration(TimeFloor))
			continue
		}
		fmt.Fprintf(&b, "%-8s %-6s ~ %s^%.2f  (%s%d points, R²=%.3f", g.Engine, g.Metric, g.Var, g.Line.Slope, fixed, g.Line.N, g.Line.R2)
		if g.Below > 0 {
			fmt.Fprintf(&b, "; %d under %s left out", g.Below, FormatDuration(TimeFloor))
		}
		b.WriteString(")")
		if g.Var == "k" {
			fmt.Fprintf(&b, "; x%.2f per added thread", g.Base)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
