package bench

import (
	"errors"
	"math"
)

// Line is a least-squares line y = Slope*x + Intercept and its coefficient
// of determination R2 (1: the points lie on the line).
type Line struct {
	Slope, Intercept, R2 float64
	N                    int // points fitted
}

// FitLine fits a line to (xs[i], ys[i]) by ordinary least squares.
func FitLine(xs, ys []float64) (Line, error) {
	if len(xs) != len(ys) {
		return Line{}, errors.New("fit: xs and ys differ in length")
	}
	n := float64(len(xs))
	if len(xs) < 2 {
		return Line{}, errors.New("fit: want at least two points")
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx, my = mx/n, my/n
	var sxx, sxy, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 {
		return Line{}, errors.New("fit: all x values are equal")
	}
	l := Line{Slope: sxy / sxx, N: len(xs)}
	l.Intercept = my - l.Slope*mx
	l.R2 = 1
	if syy > 0 {
		l.R2 = sxy * sxy / (sxx * syy)
	}
	return l, nil
}

// Exponent fits y = c * x^e on log-log axes and returns the line whose
// slope is e. Points with a non-positive coordinate have no logarithm and
// are left out (a zero state count, a time below the clock's resolution).
func Exponent(xs, ys []float64) (Line, error) {
	var lx, ly []float64
	for i := range xs {
		if i < len(ys) && xs[i] > 0 && ys[i] > 0 {
			lx = append(lx, math.Log(xs[i]))
			ly = append(ly, math.Log(ys[i]))
		}
	}
	return FitLine(lx, ly)
}

// Base fits y = c * b^x on semi-log axes and returns b: the factor by
// which y grows per unit of x (per added thread, for growth in k).
func Base(xs, ys []float64) (float64, Line, error) {
	var lx, ly []float64
	for i := range xs {
		if i < len(ys) && ys[i] > 0 {
			lx = append(lx, xs[i])
			ly = append(ly, math.Log(ys[i]))
		}
	}
	l, err := FitLine(lx, ly)
	return math.Exp(l.Slope), l, err
}
