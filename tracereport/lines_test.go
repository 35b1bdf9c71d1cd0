package tracereport

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// lineSet against a sorted slice of its members: has, next (each member
// after the one before, 0 after the last) and rank (its index).
func TestLineSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for range testflag.N(50, 1000) {
		var s lineSet
		var members []int64
		span := 1 + rng.Int64N(1000)
		for range rng.IntN(200) {
			l := rng.Int64N(span) // 0 is no line: left out
			s.add(l)
			if l > 0 && !slices.Contains(members, l) {
				members = append(members, l)
			}
		}
		slices.Sort(members)
		require.Equal(t, len(members), s.seal())
		at := int64(0)
		for i, m := range members {
			at = s.next(at)
			require.Equal(t, m, at)
			require.True(t, s.has(m))
			require.False(t, s.has(m+1) && !slices.Contains(members, m+1))
			require.Equal(t, i, s.rank(m))
		}
		require.Zero(t, s.next(at), "after the last")
	}
}
