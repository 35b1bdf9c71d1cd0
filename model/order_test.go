package model

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// PostOrder on random acyclic automata: from Init it lists exactly the
// reachable states, from every state all of them, once each, and every
// edge's target comes before its source.
func TestPostOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		n := 1 + rng.IntN(30)
		a := &Automaton{Init: int32(rng.IntN(n)), Out: make([][]Edge, n)}
		for q := range n - 1 {
			for range rng.IntN(3) {
				a.Out[q] = append(a.Out[q], Edge{To: int32(q + 1 + rng.IntN(n-q-1))})
			}
		}
		reach := map[int32]bool{a.Init: true}
		for q := a.Init; int(q) < n; q++ { // edges go up: one sweep finds all
			if reach[q] {
				for _, e := range a.Out[q] {
					reach[e.To] = true
				}
			}
		}
		for _, every := range []bool{false, true} {
			order := a.PostOrder(every)
			pos := map[int32]int{}
			for i, q := range order {
				_, dup := pos[q]
				require.False(t, dup)
				pos[q] = i
			}
			if every {
				require.Len(t, order, n)
			} else {
				require.Len(t, order, len(reach))
			}
			for q, i := range pos {
				require.True(t, every || reach[q])
				for _, e := range a.Out[q] {
					require.Less(t, pos[e.To], i, "edge %d -> %d", q, e.To)
				}
			}
		}
	}
}
