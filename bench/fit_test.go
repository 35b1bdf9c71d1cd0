package bench

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFitLineExact(t *testing.T) {
	l, err := FitLine([]float64{0, 1, 2, 3}, []float64{1, 3, 5, 7})
	require.NoError(t, err)
	require.InDelta(t, 2, l.Slope, 1e-12)
	require.InDelta(t, 1, l.Intercept, 1e-12)
	require.InDelta(t, 1, l.R2, 1e-12)
	require.Equal(t, 4, l.N)
}

func TestFitLineNoisy(t *testing.T) {
	// y = -x + 4 with symmetric noise: the slope stays, R2 drops below 1.
	l, err := FitLine([]float64{0, 1, 2, 3, 4, 5}, []float64{4.5, 2.5, 2.5, 0.5, 0.5, -1.5})
	require.NoError(t, err)
	require.InDelta(t, -19.0/17.5, l.Slope, 1e-12) // sxy/sxx by hand
	require.Less(t, l.R2, 1.0)
	require.Greater(t, l.R2, 0.9)
}

func TestFitLineErrors(t *testing.T) {
	_, err := FitLine([]float64{1}, []float64{1})
	require.Error(t, err)
	_, err = FitLine([]float64{1, 1}, []float64{1, 2})
	require.Error(t, err)
	_, err = FitLine([]float64{1, 2}, []float64{1})
	require.Error(t, err)
}

// TestExponent recovers the degree of power laws, as conc bench does for
// n^k growth, and skips points without a logarithm.
func TestExponent(t *testing.T) {
	for _, deg := range []float64{0.5, 1, 2, 3} {
		var xs, ys []float64
		for _, x := range []float64{2, 4, 8, 16, 32} {
			xs = append(xs, x)
			ys = append(ys, 7*math.Pow(x, deg))
		}
		xs, ys = append(xs, 64), append(ys, 0) // a zero count: left out
		l, err := Exponent(xs, ys)
		require.NoError(t, err)
		require.InDelta(t, deg, l.Slope, 1e-9)
		require.InDelta(t, math.Log(7), l.Intercept, 1e-9)
		require.Equal(t, 5, l.N)
	}
}

func TestBase(t *testing.T) {
	b, l, err := Base([]float64{2, 3, 4, 5}, []float64{9, 27, 81, 243})
	require.NoError(t, err)
	require.InDelta(t, 3, b, 1e-9)
	require.InDelta(t, 1, l.R2, 1e-9)
}
