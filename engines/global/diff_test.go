package global

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/brute"
	"github.com/conc-dev/conc/engines/internal/enginetest"
	"github.com/conc-dev/conc/gen"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/testkit/shrink"
	"github.com/conc-dev/conc/verify"
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
func globalDisagrees(src string, lockEdges bool, cfg config) string {
	p, err := lang.Compile("rand.conc", []byte(src))
	if err != nil {
		return ""
	}
	opts := engines.Options{LockEdges: lockEdges}
	got, err := decide(context.Background(), p, opts, cfg)
	if err != nil {
		return err.Error()
	}
	want, err := brute.Check(context.Background(), p, opts)
	if err != nil {
		return err.Error()
	}
	switch {
	case got.Verdict == engines.Unknown:
		return "global unknown: " + got.Reason
	case want.Verdict != engines.Unknown && want.Verdict != got.Verdict:
		return fmt.Sprintf("global %v, brute %v", got.Verdict, want.Verdict)
	}
	return ""
}

// TestGlobalAgreesWithBrute is the engine's correctness claim: on 3,000
// random programs with locks (straight-line and regular, 2 to 4 threads,
// with and without lock edges; 300 in the quick suite) every reduction on
// gives brute's verdict whenever brute decides, and every witness replays.
// A failure prints the seed and a shrunk program.
func TestGlobalAgreesWithBrute(t *testing.T) {
	t.Parallel()
	n := testflag.N(300, 3000)
	var tally [3][2]int // global verdict x brute decided
	for seed := uint64(0); seed < uint64(n); seed++ {
		c := globalCaseOf(t, seed)
		opts := engines.Options{LockEdges: c.lockEdges}
		got := checkGlobal(t, c.p, opts, allReductions)
		want, err := brute.Check(context.Background(), c.p, opts)
		require.NoError(t, err)
		if c.p.LoopFree() {
			require.NotEqual(t, engines.Unknown, want.Verdict, "seed %d: brute on a loop-free program: %s\n%s", seed, want.Reason, c.src)
		}
		if got.Verdict == engines.Unknown || want.Verdict != engines.Unknown && want.Verdict != got.Verdict {
			small := shrink.Program(c.src, func(s string) bool { return globalDisagrees(s, c.lockEdges, allReductions) != "" })
			t.Fatalf("seed %d (lock edges %v): global %v (%s), brute %v\nprogram:\n%s\nshrunk:\n%s",
				seed, c.lockEdges, got.Verdict, got.Reason, want.Verdict, c.src, small)
		}
		if want.Verdict == engines.Violation {
			// Shrinking any witness (here brute's) keeps it a witness.
			small := shrinkWitness(c.p, want.Witness)
			require.NoError(t, verify.Witness(c.p, small), "seed %d", seed)
			require.LessOrEqual(t, len(small.Run), len(want.Witness.Run))
		}
		tally[got.Verdict][btoi(want.Verdict != engines.Unknown)]++
	}
	t.Logf("global verdicts [serializable violation unknown] x [brute unknown, brute decided]: %v", tally)
	require.Greater(t, tally[engines.Violation][1], n/10)
	require.Greater(t, tally[engines.Serializable][1], n/10)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestGlobalReductionsKeepVerdicts compares every reduction on (alone, and
// all the others on) with it off (the plain product, and all the others
// without it) on random programs with locks: verdicts agree, witnesses
// replay, and a full exploration stores no more states than the plain one.
// 250 programs with CONC_LONG=1, 50 in the quick suite.
func TestGlobalReductionsKeepVerdicts(t *testing.T) {
	t.Parallel()
	configs := map[string]config{"all": allReductions} // each compared with plain, run once a program
	for name, on := range map[string]func(*config, bool){
		"prefilter": func(c *config, b bool) { c.prefilter = b },
		"subsets":   func(c *config, b bool) { c.subsets = b },
		"local":     func(c *config, b bool) { c.local = b },
		"por":       func(c *config, b bool) { c.por = b },
		"compact":   func(c *config, b bool) { c.compact = b },
	} {
		alone, others := config{}, allReductions
		on(&alone, true)
		on(&others, false)
		configs[name+" alone"], configs["all but "+name] = alone, others
	}
	n := testflag.N(50, 250)
	for seed := uint64(10_000); seed < uint64(10_000+n); seed++ {
		c := globalCaseOfN(t, seed, 3)
		opts := engines.Options{LockEdges: c.lockEdges}
		plain := checkGlobal(t, c.p, opts, config{})
		require.NotEqual(t, engines.Unknown, plain.Verdict)
		for name, cfg := range configs {
			res := checkGlobal(t, c.p, opts, cfg)
			require.Equal(t, plain.Verdict, res.Verdict, "seed %d, %s vs plain:\n%s", seed, name, c.src)
			if plain.Verdict == engines.Serializable && !cfg.prefilter && !cfg.subsets {
				// A reduction explores no more than the plain product (a
				// violation may be met sooner or later by either).
				require.LessOrEqual(t, res.Stats.States, plain.Stats.States, "seed %d, %s", seed, name)
			}
		}
	}
}

// globalForkJoinSpecs draws 2-3 straight-line threads (buildProg specs) of
// small transactions over x and y, sometimes inside a critical section of m;
// T1 forks T2 (and T3) at random points and may join them later.
func globalForkJoinSpecs(r *rand.Rand) []string {
	k := 2 + r.IntN(2)
	specs := make([]string, k)
	for t := range specs {
		var toks []string
		for range 1 + r.IntN(3) {
			txn := []string{"b"}
			for range 1 + r.IntN(2) {
				txn = append(txn, []string{"r:", "w:"}[r.IntN(2)]+[]string{"x", "y"}[r.IntN(2)])
			}
			txn = append(txn, "e")
			if r.IntN(3) == 0 {
				txn = append(append([]string{"acq:m"}, txn...), "rel:m")
			}
			toks = append(toks, txn...)
		}
		specs[t] = strings.Join(toks, " ")
	}
	main := strings.Fields(specs[0])
	for u := 2; u <= k; u++ {
		at := r.IntN(len(main) + 1)
		for at > 0 && at < len(main) && main[at-1] != "e" && main[at-1] != "rel:m" {
			at-- // fork and join between transactions and critical sections
		}
		fork := fmt.Sprintf("fork:T%d", u)
		main = append(main[:at], append([]string{fork}, main[at:]...)...)
		if r.IntN(2) == 0 {
			main = append(main, fmt.Sprintf("join:T%d", u))
		}
	}
	specs[0] = strings.Join(main, " ")
	return specs
}

// TestGlobalForkJoinAgreesWithBrute: fork and join restrict interleavings
// (and with lock edges add conflicts); 600 random straight-line programs
// with them (300 in the quick suite), all reductions on and off, against
// brute.
func TestGlobalForkJoinAgreesWithBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 43))
	n := testflag.N(300, 600)
	var violations int
	for i := range n {
		specs := globalForkJoinSpecs(r)
		p := enginetest.BuildProg(t, specs...)
		opts := engines.Options{LockEdges: i%2 == 1} // straight-line: brute explores them whole
		want, err := brute.Check(context.Background(), p, opts)
		require.NoError(t, err)
		require.NotEqual(t, engines.Unknown, want.Verdict, "%q", specs)
		for _, cfg := range []config{{}, allReductions, {local: true, por: true}} {
			got := checkGlobal(t, p, opts, cfg)
			require.Equal(t, want.Verdict, got.Verdict, "program %d (lock edges %v) %+v: %q", i, opts.LockEdges, cfg, specs)
		}
		violations += btoi(want.Verdict == engines.Violation)
	}
	require.Greater(t, violations, n/10)
	require.Less(t, violations, n*9/10)
}

// TestGlobalRecursiveAgreesWithBrute: recursive programs with locks are
// searched within --max-stack; a violation brute finds within the same
// stack bound is found, and every verdict is consistent with brute's. 150
// programs with CONC_LONG=1, 60 in the quick suite.
func TestGlobalRecursiveAgreesWithBrute(t *testing.T) {
	n := testflag.N(60, 150)
	var found int
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		pr := globalParams(r, false, 3)
		pr.Recursion = true
		src := gen.Random(r, pr)
		p, err := lang.Compile("rec.conc", []byte(src))
		require.NoError(t, err, src)
		opts := engines.Options{LockEdges: seed%2 == 1, MaxStack: 4}
		got := checkGlobal(t, p, opts, allReductions)
		want, err := brute.Check(context.Background(), p, opts)
		require.NoError(t, err)
		if want.Verdict == engines.Violation {
			require.Equal(t, engines.Violation, got.Verdict, "seed %d:\n%s", seed, src)
		}
		if got.Verdict == engines.Serializable {
			require.NotEqual(t, engines.Violation, want.Verdict, "seed %d:\n%s", seed, src)
		}
		if got.Verdict == engines.Unknown {
			require.Contains(t, got.Reason, "--max-stack 4", "seed %d", seed)
		}
		found += btoi(got.Verdict == engines.Violation)
	}
	require.Greater(t, found, n/10)
}
