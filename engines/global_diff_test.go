package engines

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/gen"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

// globalParams draws the shape of one random program with locks: 2 to
// maxThreads straight-line or regular threads (loops and choose), nested and unary
// transactions. Brute decides the straight-line ones and bounds the others.
func globalParams(r *rand.Rand, regular bool, maxThreads int) gen.Params {
	k := 2 + r.IntN(maxThreads-1)
	return gen.Params{
		Threads: k, EventsPerThread: 2 + r.IntN(6-k), Vars: 1 + r.IntN(3), Locks: 1 + r.IntN(2),
		TxnLen: 1 + r.IntN(3), Sync: true, Unary: r.IntN(2) == 0, Nested: r.IntN(3) == 0,
		Loops: regular, Choice: regular && r.IntN(2) == 0,
	}
}

// globalCase is one generated program.
type globalCase struct {
	seed      uint64
	src       string
	p         *model.Program
	lockEdges bool
}

func globalCaseOf(t *testing.T, seed uint64) globalCase { return globalCaseOfN(t, seed, 4) }

func globalCaseOfN(t *testing.T, seed uint64, maxThreads int) globalCase {
	r := rand.New(rand.NewPCG(seed, 4))
	src := gen.Random(r, globalParams(r, seed%2 == 1, maxThreads))
	p, err := lang.Compile("rand.conc", []byte(src))
	require.NoError(t, err, "seed %d:\n%s", seed, src)
	return globalCase{seed: seed, src: src, p: p, lockEdges: seed%4 >= 2}
}

// disagrees compares global (under cfg) with brute on src; it returns a
// description of the disagreement, or "".
func globalDisagrees(src string, lockEdges bool, cfg globalConfig) string {
	p, err := lang.Compile("rand.conc", []byte(src))
	if err != nil {
		return ""
	}
	opts := Options{LockEdges: lockEdges}
	got, err := globalRun(context.Background(), p, opts, cfg)
	if err != nil {
		return err.Error()
	}
	want, err := bruteCheck(context.Background(), p, opts)
	if err != nil {
		return err.Error()
	}
	switch {
	case got.Verdict == Unknown:
		return "global unknown: " + got.Reason
	case want.Verdict != Unknown && want.Verdict != got.Verdict:
		return fmt.Sprintf("global %v, brute %v", got.Verdict, want.Verdict)
	}
	return ""
}

// TestGlobalAgreesWithBrute is the engine's correctness claim: on 3,000
// random programs with locks (straight-line and regular, 2 to 4 threads,
// with and without lock edges) every reduction on gives brute's verdict
// whenever brute decides, and every witness replays. A failure prints the
// seed and a shrunk program.
func TestGlobalAgreesWithBrute(t *testing.T) {
	n := 3000
	var tally [3][2]int // global verdict x brute decided
	for seed := uint64(0); seed < uint64(n); seed++ {
		c := globalCaseOf(t, seed)
		opts := Options{LockEdges: c.lockEdges}
		got := checkGlobal(t, c.p, opts, globalAll)
		want, err := bruteCheck(context.Background(), c.p, opts)
		require.NoError(t, err)
		if got.Verdict == Unknown || want.Verdict != Unknown && want.Verdict != got.Verdict {
			small := gen.Shrink(c.src, func(s string) bool { return globalDisagrees(s, c.lockEdges, globalAll) != "" })
			t.Fatalf("seed %d (lock edges %v): global %v (%s), brute %v\nprogram:\n%s\nshrunk:\n%s",
				seed, c.lockEdges, got.Verdict, got.Reason, want.Verdict, c.src, small)
		}
		tally[got.Verdict][btoi(want.Verdict != Unknown)]++
	}
	t.Logf("global verdicts [serializable violation unknown] x [brute unknown, brute decided]: %v", tally)
	require.Greater(t, tally[Violation][1], n/10)
	require.Greater(t, tally[Serializable][1], n/10)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestGlobalReductionsKeepVerdicts compares every reduction, alone and all
// together, with the plain product on random programs with locks.
func TestGlobalReductionsKeepVerdicts(t *testing.T) {
	for seed := uint64(10_000); seed < 10_600; seed++ {
		c := globalCaseOfN(t, seed, 3)
		opts := Options{LockEdges: c.lockEdges}
		plain := checkGlobal(t, c.p, opts, globalConfig{})
		require.NotEqual(t, Unknown, plain.Verdict)
		for name, cfg := range globalConfigs {
			res := checkGlobal(t, c.p, opts, cfg)
			require.Equal(t, plain.Verdict, res.Verdict, "seed %d, %s vs plain:\n%s", seed, name, c.src)
			if plain.Verdict == Serializable && !cfg.prefilter && !cfg.subsets {
				// A reduction explores no more than the plain product (a
				// violation may be met sooner or later by either).
				require.LessOrEqual(t, res.Stats.States, plain.Stats.States, "seed %d, %s", seed, name)
			}
		}
	}
}
