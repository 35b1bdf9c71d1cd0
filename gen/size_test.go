package gen

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBytesEstimates draws instances of every family at random sizes and
// checks its estimate against the real text: never under by more than a
// third (the cap must hold), never over by more than the factor w1's
// unreachable states allow.
func TestBytesEstimates(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	flip := func() bool { return rng.IntN(2) == 0 }
	for _, name := range Families() {
		fam, _ := Lookup(name)
		worstUnder, worstOver := math.Inf(1), 0.0
		for range 30 {
			p := Params{Threads: 2 + rng.IntN(5), EventsPerThread: rng.IntN(300), Vars: 3 + rng.IntN(500),
				Locks: 1 + rng.IntN(50), TxnLen: 1 + rng.IntN(4), Depth: 1 + rng.IntN(300),
				States: 1 + rng.IntN(4), Letters: 1 + rng.IntN(3), M: rng.IntN(3), Clauses: 1 + rng.IntN(400),
				Loops: flip(), Choice: flip(), Recursion: flip(), Nested: flip(), Unary: flip(), Sync: flip(), Twin: flip()}
			if name == "w1" || name == "w1-counters" {
				p.Threads = 2 + rng.IntN(2)
			}
			text := fam.Gen(rand.New(rand.NewPCG(rng.Uint64(), 0)), p)
			ratio := fam.Bytes(p) / float64(len(text))
			require.Greater(t, ratio, 0.66, "%s under by %.2f at %v", name, ratio, p)
			worstUnder, worstOver = min(worstUnder, ratio), max(worstOver, ratio)
		}
		limit := map[string]float64{"w1": 60, "w1-counters": 8}[name] // w1's bound counts states no run reaches
		if limit == 0 {
			limit = 4
		}
		require.Less(t, worstOver, limit, "%s's estimate is too loose", name)
		t.Logf("%-12s estimate/text from %.2f to %.2f", name, worstUnder, worstOver)
	}
}

// TestBytesRefused: 100,000 threads of 1,000 accesses (100 M accesses) is
// refused by its estimate, which names both sizes, long before drawing.
func TestBytesRefused(t *testing.T) {
	fam, _ := Lookup("random")
	err := CheckBytes(fam.Bytes(Params{Threads: 100_000, EventsPerThread: 1000}), "--threads or --n")
	require.EqualError(t, err, "the program would be about 3.82 GiB, over the cap of 64 MiB: lower --threads or --n")
	require.NoError(t, CheckBytes(fam.Bytes(Params{Threads: 100, EventsPerThread: 1000}), "--n"))
}

func TestReadsCheck(t *testing.T) {
	fam, _ := Lookup("chain")
	p := Params{Threads: 1, EventsPerThread: 0, Depth: 3}
	err := fam.Reads.Check("chain", p, []string{"seed", "threads", "n", "depth"})
	require.EqualError(t, err, "--seed does not apply to chain (it draws nothing at random; it reads --threads, --n, --twin)\n"+
		"--threads 1: chain wants 2 to 1000000\n"+
		"--depth does not apply to chain (it reads --threads, --n, --twin)")
	require.NoError(t, fam.Reads.Check("chain", Params{Threads: 2}, []string{"threads", "n", "twin"}))
	require.Error(t, fam.Reads.Check("chain", Params{Threads: MaxSize + 1}, []string{"threads"}))
}
