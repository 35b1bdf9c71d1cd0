package bench

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
)

// TestRunSweep measures a tiny sweep and checks its shape: one point per
// engine, size and thread count, the verdicts the family promises, and the
// profile engine skipped on a program with locks.
func TestRunSweep(t *testing.T) {
	var seen []Point
	pts, err := Run(context.Background(), Spec{
		Family: "locked", Engines: []string{"profile", "global"}, Sizes: []int{3, 1, 2}, Threads: []int{2, 3, 4},
		Timeout: 10 * time.Second,
	}, func(p Point) { seen = append(seen, p) })
	require.NoError(t, err)
	require.Len(t, pts, 2*3*3)
	require.Equal(t, pts, seen)
	for i, p := range pts {
		switch p.Engine {
		case "profile":
			require.Contains(t, p.Skipped, "unsupported")
		case "global":
			require.Empty(t, p.Skipped)
			require.Equal(t, "serializable", p.Verdict)
			require.Positive(t, p.States)
			require.Positive(t, p.Time)
			require.Positive(t, p.Alloc)
		}
		if i >= 2 && pts[i-2].K == p.K {
			require.Greater(t, p.N, pts[i-2].N, "sizes run in increasing order")
		}
	}
	gs := Fits(pts)
	var inN, inK int
	for _, g := range gs {
		require.Equal(t, "global", g.Engine)
		if g.Var == "n" {
			inN++
		} else {
			inK++
		}
		if g.Metric == "states" { // times this small are noise; states are not
			require.Positive(t, g.Line.Slope)
			if g.Var == "k" {
				require.Greater(t, g.Base, 1.0, "more threads, more states")
			}
		}
	}
	require.Equal(t, 3*2, inN) // k=2,3,4, time and states
	require.Equal(t, 3*2, inK) // n=1,2,3, time and states
}

// TestRunStopsAfterTimeout checks that an engine slower than the timeout
// is not run again at larger sizes.
func TestRunStopsAfterTimeout(t *testing.T) {
	pts, err := Run(context.Background(), Spec{
		Family: "locked", Engines: []string{"global"}, Sizes: []int{40, 80}, Threads: []int{4},
		Timeout: time.Millisecond,
	}, nil)
	require.NoError(t, err)
	require.Len(t, pts, 2)
	require.Equal(t, "timeout", pts[0].Verdict)
	require.Contains(t, pts[1].Skipped, "timed out at n=40")
}

func TestRunErrors(t *testing.T) {
	_, err := Run(context.Background(), Spec{Family: "nope", Engines: []string{"global"}, Sizes: []int{1}}, nil)
	require.ErrorContains(t, err, "cannot be swept")
	_, err = Run(context.Background(), Spec{Family: "chain", Engines: []string{"nope"}, Sizes: []int{1}}, nil)
	require.ErrorContains(t, err, "unknown engine")
	_, err = Run(context.Background(), Spec{Family: "chain", Engines: []string{"global"}}, nil)
	require.Error(t, err)
}

// TestEveryAxisCompiles generates each sweepable family at small sizes.
func TestEveryAxisCompiles(t *testing.T) {
	for _, name := range AxisNames() {
		pts, err := Run(context.Background(), Spec{Family: name, Engines: []string{"global"}, Sizes: []int{1, 2}, Timeout: 5 * time.Second}, nil)
		require.NoError(t, err, name)
		require.Len(t, pts, 2, name)
	}
}

// TestRunStopsAtUnknown checks that an engine answering unknown (a bound:
// here brute's depth) is neither fitted nor run at larger sizes.
func TestRunStopsAtUnknown(t *testing.T) {
	pts, err := Run(context.Background(), Spec{
		Family: "locked", Engines: []string{"brute"}, Sizes: []int{1, 8, 9}, Threads: []int{2},
		Options: engines.Options{MaxDepth: 6},
	}, nil)
	require.NoError(t, err)
	require.Len(t, pts, 3)
	require.True(t, pts[0].Measured())
	require.Equal(t, "unknown", pts[1].Verdict)
	require.False(t, pts[1].Measured())
	require.Contains(t, pts[2].Skipped, "unknown at n=8")
	require.Empty(t, Fits(pts))
}

// TestNPFitsWithoutK checks that a family without a thread count (np)
// reports the generated program's threads and fits without "k=0".
func TestNPFitsWithoutK(t *testing.T) {
	pts, err := Run(context.Background(), Spec{Family: "np", Engines: []string{"profile"}, Sizes: []int{1, 2, 3}, Timeout: 10 * time.Second}, nil)
	require.NoError(t, err)
	for _, p := range pts {
		require.Zero(t, p.K)
		require.Greater(t, p.Threads, p.N, "one thread per literal occurrence, plus S")
	}
	var b strings.Builder
	require.NoError(t, WriteFits(&b, Fits(pts)))
	require.Contains(t, b.String(), "(3 points")
}

// TestRunChecksThreads: a thread count below the family's least, or any
// for a family without one, is an error, not a silently different sweep.
func TestRunChecksThreads(t *testing.T) {
	for _, s := range []Spec{
		{Family: "chain", Engines: []string{"global"}, Sizes: []int{1}, Threads: []int{1}},
		{Family: "np", Engines: []string{"global"}, Sizes: []int{1}, Threads: []int{2}},
		{Family: "deep", Engines: []string{"global"}, Sizes: []int{1}, Threads: []int{3}},
	} {
		_, err := Run(context.Background(), s, nil)
		require.ErrorContains(t, err, "--threads", "%+v", s)
	}
}
