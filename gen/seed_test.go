package gen

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// A family that does not declare Seeded writes the same instance under
// every seed (so refusing --seed loses nothing), and Check refuses --seed
// for it; a Seeded family accepts it.
func TestSeedOnlyWhereDrawn(t *testing.T) {
	for _, name := range Families() {
		fam, _ := Lookup(name)
		err := fam.Reads.Check(name, Params{}, []string{"seed"})
		if fam.Reads.Seeded {
			require.NoError(t, err, name)
			continue
		}
		require.ErrorContains(t, err, "--seed does not apply to "+name, name)
		p := Params{Threads: 3, EventsPerThread: 2, Depth: 2, States: 2, Locks: 1}
		a := fam.Gen(rand.New(rand.NewPCG(1, 0)), p)
		b := fam.Gen(rand.New(rand.NewPCG(2, 0)), p)
		require.Equal(t, a, b, "%s depends on the seed", name)
	}
}
