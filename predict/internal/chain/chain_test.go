package chain

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
)

// randomSummary is k threads over v variables whose letters have random
// first and last transactions (up to txns), some unused.
func randomSummary(rng *rand.Rand, k, v int, txns int32) *proj.Summary {
	s := &proj.Summary{}
	for range k {
		th := &proj.ThreadSum{Span: make([]proj.LetterSpan, 2*v)}
		for l := range th.Span {
			if rng.IntN(3) == 0 {
				continue
			}
			a, b := 1+rng.Int32N(txns), 1+rng.Int32N(txns)
			th.Span[l] = proj.LetterSpan{First: min(a, b), Last: max(a, b)}
		}
		s.Threads = append(s.Threads, th)
	}
	return s
}

// TestStepFnMatchesDefinition: g_jk(t) = min{m_k(e2) : last_j(e2) >= t},
// computed from the definition, against the step function, which stops its
// walk once the minimum is 1; and byLast's two sorts give one order, by
// last use descending, ties by letter.
func TestStepFnMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	for n := range testflag.N(200, 2000) {
		k, v, txns := 2+rng.IntN(4), 1+rng.IntN(30), int32(1+rng.IntN(40))
		s := randomSummary(rng, k, v, txns)
		c := New(context.Background(), s, 0)
		for j := range k {
			span := s.Threads[j].Span
			ls := c.byLast(j)
			top := int32(0)
			for _, sp := range span {
				top = max(top, sp.Last)
			}
			require.Equal(t, packedByLast(span), countingByLast(span, top), "case %d", n)
			for x := 1; x < len(ls); x++ {
				a, b := span[ls[x-1]], span[ls[x]]
				require.True(t, a.Last > b.Last || a.Last == b.Last && ls[x-1] < ls[x], "case %d", n)
			}
			for kk := range k {
				if kk == j {
					continue
				}
				g := c.step(j, kk)
				for tt := int32(1); tt <= txns+1; tt++ {
					want := int32(Inf)
					for l, sp := range span {
						if sp.Last != 0 && sp.Last >= tt {
							want = min(want, c.enter(kk, profiles.Letter(l)))
						}
					}
					require.Equal(t, want, g.at(tt), "case %d: g_%d%d(%d)", n, j, kk, tt)
				}
			}
		}
	}
}
