package profile

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/brute"
	"github.com/conc-dev/conc/gen"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/testkit/shrink"
)

// pdaGenParams draws a random recursive lock-free program: gen's recursive
// preset (procedures calling each other in a cycle behind a choose) with
// 2-3 threads of 2-4 accesses.
func pdaGenParams(r *rand.Rand) gen.Params {
	return gen.Params{
		Threads: 2 + r.IntN(2), EventsPerThread: 2 + r.IntN(3), Vars: 1 + r.IntN(2),
		TxnLen: 1 + r.IntN(3), Unary: true, Nested: r.IntN(2) == 0,
		Recursion: true, Choice: r.IntN(2) == 0, Loops: r.IntN(4) == 0,
	}
}

// TestProfileRecursiveGenerated is a cross-check: on 2,000 random
// recursive programs the profile engine (pushdown profiles, Lemma 4) and the
// product construction agree, find a violation whenever bounded brute does,
// agree with brute whenever it is definite, and every witness replays. 300
// programs in the quick suite.
func TestProfileRecursiveGenerated(t *testing.T) {
	n := testflag.N(300, 2000)
	counts := map[string]int{}
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 5))
		src := gen.Random(r, pdaGenParams(r))
		p, err := lang.Compile("gen.conc", []byte(src))
		require.NoError(t, err, "seed %d\n%s", seed, src)
		require.Equal(t, model.Recursive, p.Class(), "seed %d\n%s", seed, src)
		got, brute, problem := pdaDisagreement(t, p)
		if problem != "" {
			small := shrink.Program(src, func(s string) bool {
				q, err := lang.Compile("gen.conc", []byte(s))
				if err != nil || q.Class() != model.Recursive {
					return false
				}
				_, _, pb := pdaDisagreement(t, q)
				return pb != ""
			})
			t.Fatalf("seed %d: %s\nprogram:\n%s\nshrunk:\n%s", seed, problem, src, small)
		}
		counts[fmt.Sprintf("profile=%v brute=%v", got, brute)]++
	}
	t.Logf("outcomes: %v", counts)
	require.Greater(t, counts["profile=violation brute=violation"], n/10, "brute should find many violations")
	require.Greater(t, counts["profile=serializable brute=unknown"]+counts["profile=serializable brute=serializable"], n/10)
}

// pdaDisagreement is pfDisagreement with a smaller budget for brute, which
// otherwise spends most of the test unrolling recursion it cannot finish.
func pdaDisagreement(t *testing.T, p *model.Program) (engines.Verdict, engines.Verdict, string) {
	got, b, problem, err := pfDisagreement(t.Context(), p, engines.Options{MaxStates: 3000, MaxDepth: 8, MaxStack: 4})
	require.NoError(t, err)
	return got, b, problem
}

// deepProgram is a violation that needs a stack of d calls: D0 calls D1 …
// calls D(d-1), whose atomic block reads x twice; D(d-1) may call D0 again,
// so all d procedures are recursive (pushdown code, not inlined). W writes x
// between the two reads.
func deepProgram(d int) string {
	var b strings.Builder
	b.WriteString("vars x, y\n")
	for i := 0; i < d-1; i++ {
		fmt.Fprintf(&b, "proc D%d { read y; call D%d }\n", i, i+1)
	}
	fmt.Fprintf(&b, "proc D%d { choose { atomic { read x; read x } } or { call D0 } }\n", d-1)
	b.WriteString("thread R { call D0 }\nthread W { write x }\n")
	return b.String()
}

// TestProfileDeepRecursion: brute with its default bounds cannot reach the
// access pair (d > brute.MaxStack symbols, and d unary reads of y before it);
// the profile engine finds the violation, with a witness that replays
// through d calls.
func TestProfileDeepRecursion(t *testing.T) {
	for _, d := range []int{3, brute.MaxStack + 2, 50} {
		p, err := lang.Compile("deep.conc", []byte(deepProgram(d)))
		require.NoError(t, err)
		require.Equal(t, model.Recursive, p.Class())
		require.Equal(t, engines.Violation, pfCheck(t, p, engines.Options{}), "depth %d", d)
		res, err := Check(t.Context(), p, engines.Options{})
		require.NoError(t, err)
		pushes := 0
		for _, m := range res.Witness.Paths[0] {
			if p.Threads[0].Auto.Out[m.From][m.Edge].Stack == model.StackPush {
				pushes++
			}
		}
		require.GreaterOrEqual(t, pushes, d, "the witness makes the d calls")
		b, err := brute.Check(t.Context(), p, engines.Options{})
		require.NoError(t, err)
		if d > brute.MaxStack {
			require.Equal(t, engines.Unknown, b.Verdict, "depth %d is beyond brute's bounds", d)
		} else {
			require.Equal(t, engines.Violation, b.Verdict)
		}
	}
}

// TestProfileRecursiveSerializable: a binary recursion whose every
// transaction has one conflicting access (examples/recursive_safe.conc's
// argument) is serializable at every depth, which only profiles can prove.
func TestProfileRecursiveSerializable(t *testing.T) {
	src := `vars node, out
proc visit { atomic { read node; write out } choose { skip } or { call visit; call visit } }
thread Walker { call visit }
thread Reporter { loop { atomic { read out } } }`
	p, err := lang.Compile("safe.conc", []byte(src))
	require.NoError(t, err)
	require.Equal(t, engines.Serializable, pfCheck(t, p, engines.Options{}))
	b, err := brute.Check(t.Context(), p, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, b.Verdict)
}
