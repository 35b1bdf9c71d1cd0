package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestWriteTable(t *testing.T) {
	var b strings.Builder
	require.NoError(t, WriteTable(&b, []Point{
		{Engine: "global", N: 4, K: 2, Threads: 2, Verdict: "violation", States: 120, Time: 1500 * time.Microsecond, Alloc: 3 << 20},
		{Engine: "profile", N: 4, K: 2, Threads: 2, Skipped: "unsupported: locks"},
	}))
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	require.Len(t, lines, 3)
	require.Regexp(t, `engine +n +k +threads +verdict +states +time +memory`, lines[0])
	require.Regexp(t, `global +4 +2 +2 +violation +120 +1.5ms +3MB`, lines[1])
	require.Regexp(t, `profile +4 +2 +2 +skipped.*\(unsupported: locks\)`, lines[2])
}

func TestFormats(t *testing.T) {
	require.Equal(t, "999ns", FormatDuration(999))
	require.Equal(t, "12.3µs", FormatDuration(12345))
	require.Equal(t, "2.5s", FormatDuration(2500*time.Millisecond))
	require.Equal(t, "512B", FormatBytes(512))
	require.Equal(t, "1.5KB", FormatBytes(1536))
	require.Equal(t, "2GB", FormatBytes(2<<30))
}

// TestFitsAndWriteFits fits synthetic n^2 and n^3 growth and prints it.
func TestFitsAndWriteFits(t *testing.T) {
	var pts []Point
	for _, k := range []int{2, 3, 4} {
		for _, n := range []int{2, 4, 8} {
			s := int64(1)
			for range k {
				s *= int64(n)
			}
			pts = append(pts, Point{Engine: "global", N: n, K: k, Verdict: "serializable", States: s, Time: time.Duration(s) * time.Millisecond})
		}
	}
	pts = append(pts, Point{Engine: "global", N: 16, K: 3, Verdict: "timeout"}) // not fitted
	gs := Fits(pts)
	got := map[string]float64{}
	for _, g := range gs {
		if g.Var == "n" {
			got[g.Metric+string(rune('0'+g.Fixed))] = g.Line.Slope
			require.Equal(t, 3, g.Line.N)
		}
	}
	require.InDelta(t, 2, got["states2"], 1e-9)
	require.InDelta(t, 3, got["states3"], 1e-9)
	require.InDelta(t, 3, got["time3"], 1e-9)
	var b strings.Builder
	require.NoError(t, WriteFits(&b, gs))
	require.Contains(t, b.String(), "global   states ~ n^3.00  (k=3, 3 points, R²=1.000)")
	require.Contains(t, b.String(), "per added thread")
}

// TestFitsLeaveOutShortTimes: times under TimeFloor are not fitted (they
// measure the clock); a series left with fewer than three is listed as
// not fitted, with the count, and states are fitted whatever the times.
func TestFitsLeaveOutShortTimes(t *testing.T) {
	var pts []Point
	for _, n := range []int{2, 4, 8, 16} {
		pts = append(pts, Point{Engine: "profile", N: n, K: 3, Verdict: "violation", States: int64(n), Time: time.Duration(100*n) * time.Microsecond},
			Point{Engine: "global", N: n, K: 3, Verdict: "violation", States: int64(n * n), Time: time.Duration(n*n) * time.Millisecond / 8})
	}
	gs := Fits(pts)
	byName := map[string]Growth{}
	for _, g := range gs {
		byName[g.Engine+" "+g.Metric] = g
	}
	require.False(t, byName["profile time"].Fitted())
	require.Equal(t, 3, byName["profile time"].Below, "0.2, 0.4 and 0.8 ms")
	require.True(t, byName["profile states"].Fitted())
	g := byName["global time"]
	require.True(t, g.Fitted(), "2, 8 and 32 ms")
	require.Equal(t, 1, g.Below, "0.5 ms at n=2")
	require.Equal(t, 3, g.Line.N)
	require.InDelta(t, 2, g.Line.Slope, 1e-9)
	var b strings.Builder
	require.NoError(t, WriteFits(&b, gs))
	require.Contains(t, b.String(), "profile  time   not fitted: k=3, 3 of 4 times under 1ms\n")
	require.Contains(t, b.String(), "global   time   ~ n^2.00  (k=3, 3 points, R²=1.000; 1 under 1ms left out)\n")
}
