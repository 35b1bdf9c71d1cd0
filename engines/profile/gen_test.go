package profile

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/brute"
	"github.com/conc-dev/conc/gen"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/testkit/shrink"
	"github.com/conc-dev/conc/verify"
)

// pfGenParams draws the size of a random lock-free program: 2-5 threads,
// straight-line or (with loops and choose) regular, small enough that brute
// usually finishes within its state bound.
func pfGenParams(r *rand.Rand, regular bool) gen.Params {
	p := gen.Params{
		Threads: 2 + r.IntN(4), EventsPerThread: 2 + r.IntN(3), Vars: 1 + r.IntN(3),
		TxnLen: 1 + r.IntN(3), Unary: true, Nested: true,
	}
	if p.Threads >= 4 {
		p.EventsPerThread = 2
	}
	p.Loops, p.Choice = regular, regular
	return p
}

// pfBruteOpts bound brute: straight-line threads are explored whole (so
// brute is exact unless the state bound cuts it), loops are unrolled a
// little. A cut makes brute answer unknown; then only the profile engine's
// witness (replayed by verify) and the product construction check it.
func pfBruteOpts(regular bool) engines.Options {
	if regular {
		return engines.Options{MaxStates: 3000, MaxDepth: 6}
	}
	return engines.Options{MaxStates: 6000, MaxDepth: 64}
}

// pfDisagreement runs the profile engine, the product construction and brute
// on p and describes the first problem: the two profile algorithms
// disagree, a witness does not replay, or brute answers definitely and
// differently. It returns the profile verdict and brute's.
func pfDisagreement(ctx context.Context, p *model.Program, bopts engines.Options) (engines.Verdict, engines.Verdict, string, error) {
	res, err := Check(ctx, p, engines.Options{})
	if err != nil {
		return 0, 0, "", err
	}
	prod, err := Product(ctx, p, engines.Options{})
	if err != nil {
		return 0, 0, "", err
	}
	b, err := brute.Check(ctx, p, bopts)
	if err != nil {
		return 0, 0, "", err
	}
	switch {
	case res.Verdict != prod.Verdict:
		return res.Verdict, b.Verdict, fmt.Sprintf("chain search says %v, product construction %v", res.Verdict, prod.Verdict), nil
	case b.Verdict != engines.Unknown && b.Verdict != res.Verdict:
		return res.Verdict, b.Verdict, fmt.Sprintf("profile says %v, brute %v", res.Verdict, b.Verdict), nil
	}
	for _, r := range []engines.Result{res, prod} {
		if r.Verdict == engines.Violation {
			if err := verify.Witness(p, r.Witness); err != nil {
				return res.Verdict, b.Verdict, "witness does not replay: " + err.Error(), nil
			}
		}
	}
	return res.Verdict, b.Verdict, "", nil
}

// pfGenCase is one generated program's outcome.
type pfGenCase struct {
	seed           uint64
	regular        bool
	src, problem   string
	profile, brute engines.Verdict
	err            error
}

func pfGenRun(ctx context.Context, seed uint64) pfGenCase {
	r := rand.New(rand.NewPCG(seed, 3))
	c := pfGenCase{seed: seed, regular: seed%2 == 1}
	c.src = gen.Random(r, pfGenParams(r, c.regular))
	p, err := lang.Compile("gen.conc", []byte(c.src))
	if err != nil {
		c.err = err
		return c
	}
	c.profile, c.brute, c.problem, c.err = pfDisagreement(ctx, p, pfBruteOpts(c.regular))
	return c
}

// TestProfileGenerated is a cross-check: 5,000 random
// lock-free programs from gen.Random (half straight-line, half regular, 2-5
// threads), each decided by the chain search, the paper's product
// construction and brute, on all cores. A failure prints the seed, the
// program and a shrunk program that still fails. 500 programs in the quick
// suite.
func TestProfileGenerated(t *testing.T) {
	n := testflag.N(500, 5000)
	cases := make([]pfGenCase, n)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := w; s < n; s += workers {
				cases[s] = pfGenRun(t.Context(), uint64(s))
			}
		}()
	}
	wg.Wait()
	counts := map[string]int{}
	definite := map[bool]int{}
	for _, c := range cases {
		require.NoError(t, c.err, "seed %d\n%s", c.seed, c.src)
		if c.problem != "" {
			t.Fatalf("seed %d (regular %v): %s\nprogram:\n%s\nshrunk:\n%s", c.seed, c.regular, c.problem, c.src, pfShrink(t, c))
		}
		counts[fmt.Sprintf("regular=%v profile=%v brute=%v", c.regular, c.profile, c.brute)]++
		if c.brute != engines.Unknown {
			definite[c.regular]++
		}
	}
	t.Logf("outcomes: %v", counts)
	t.Logf("brute definite and agreeing: %d straight-line, %d regular of %d", definite[false], definite[true], n)
	require.GreaterOrEqual(t, definite[false], n/2*8/10, "brute should decide most straight-line programs")
	require.Greater(t, counts["regular=true profile=violation brute=violation"], n/10)
}

// pfShrink shrinks a failing case's program with shrink.Program.
func pfShrink(t *testing.T, c pfGenCase) string {
	return shrink.Program(c.src, func(s string) bool {
		p, err := lang.Compile("gen.conc", []byte(s))
		if err != nil {
			return false
		}
		_, _, problem, err := pfDisagreement(t.Context(), p, pfBruteOpts(c.regular))
		return err != nil || problem != ""
	})
}
