package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

// switches builds the Params of switch combination c (bit i: switch i) with
// sizes drawn from rng.
func switches(rng *rand.Rand, c int) Params {
	bit := func(i int) bool { return c&(1<<i) != 0 }
	return Params{
		Threads:         1 + rng.IntN(3),
		EventsPerThread: rng.IntN(7),
		Vars:            1 + rng.IntN(3),
		Locks:           rng.IntN(3),
		TxnLen:          1 + rng.IntN(3),
		Loops:           bit(0), Choice: bit(1), Recursion: bit(2),
		Nested: bit(3), Unary: bit(4), Sync: bit(5), Identical: bit(6),
	}
}

const combos = 1 << 7

// seeds is how many seeds TestRandomCompiles draws, spread evenly over the
// switch combinations (seed s runs combination s mod 128), so that each
// combination sees about 78 programs of random sizes with CONC_LONG=1, and
// about 15 in the quick suite.
func seeds() int {
	return testflag.N(2000, 10000)
}

// TestRandomCompiles checks the package's promise: every program Random
// writes compiles, for every switch combination, and its class and use of
// locks are what the switches allow.
func TestRandomCompiles(t *testing.T) {
	n := seeds()
	for c := 0; c < combos; c++ {
		t.Run(fmt.Sprintf("switches=%07b", c), func(t *testing.T) {
			t.Parallel()
			for seed := c; seed < n; seed += combos {
				rng := rand.New(rand.NewPCG(uint64(seed), 0))
				p := switches(rng, c)
				src := Random(rng, p)
				prog, err := lang.Compile("gen.conc", []byte(src))
				if err != nil {
					t.Fatalf("seed %d, %s: %v\n%s", seed, p, err, src)
				}
				checkShape(t, p.withDefaults(), prog, src)
			}
		})
	}
}

func checkShape(t *testing.T, p Params, prog *model.Program, src string) {
	t.Helper()
	require.Len(t, prog.Threads, p.Threads, src)
	if p.Identical && p.Threads >= 2 {
		last := prog.Threads[p.Threads-2:]
		require.Equal(t, "W[0]", last[0].Name)
		require.Same(t, last[0].Auto, last[1].Auto, "W[2] shares one automaton")
	}
	if !p.Sync {
		require.False(t, prog.HasSync(), src)
	}
	class := prog.Class()
	switch {
	case p.Recursion:
		require.Equal(t, model.Recursive, class, src)
	case !p.Loops && !p.Choice:
		require.Equal(t, model.StraightLine, class, src)
	default:
		require.NotEqual(t, model.Recursive, class, src)
	}
	if !p.Unary {
		require.NotContains(t, topLevelAccesses(src), "x", "an access outside atomic:\n%s", src)
	}
}

// topLevelAccesses returns the accesses of src that lie in no atomic block,
// read off the printed layout (a block's line ends in "{").
func topLevelAccesses(src string) string {
	var out []string
	var stack []bool // per open block: inside an atomic?
	for _, line := range strings.Split(src, "\n") {
		l := strings.TrimSpace(line)
		in := len(stack) > 0 && stack[len(stack)-1]
		switch {
		case l == "}":
			stack = stack[:len(stack)-1]
		case strings.HasPrefix(l, "}"): // } or {
		case strings.HasSuffix(l, "{"):
			stack = append(stack, in || strings.HasPrefix(l, "atomic"))
		case (strings.HasPrefix(l, "read ") || strings.HasPrefix(l, "write ")) && !in:
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestRandomDeterministic(t *testing.T) {
	p := Params{Threads: 3, EventsPerThread: 6, Loops: true, Choice: true, Recursion: true, Sync: true, Nested: true}
	a := Random(rand.New(rand.NewPCG(42, 0)), p)
	b := Random(rand.New(rand.NewPCG(42, 0)), p)
	c := Random(rand.New(rand.NewPCG(43, 0)), p)
	require.Equal(t, a, b)
	require.NotEqual(t, a, c)
	require.True(t, strings.HasPrefix(a, "// gen random: threads=3 events=6 vars=2 locks=1 txn=2 loops choice recursion nested sync\n"), a)
}

// TestClasses checks that each preset draws programs of its class, and
// that the lock presets do use locks.
func TestClasses(t *testing.T) {
	want := map[string]model.Class{
		"straight-line": model.StraightLine, "regular": model.Regular, "recursive": model.Recursive,
		"locks": model.StraightLine, "locks-regular": model.Regular,
	}
	for _, pre := range classes() {
		classes, withSync := map[model.Class]int{}, 0
		for seed := uint64(0); seed < 200; seed++ {
			src := Random(rand.New(rand.NewPCG(seed, 9)), pre.Params)
			prog, err := lang.Compile(pre.Name+".conc", []byte(src))
			require.NoError(t, err, src)
			classes[prog.Class()]++
			if prog.HasSync() {
				withSync++
			}
		}
		wantClass, ok := want[pre.Name]
		require.True(t, ok, pre.Name)
		require.Greater(t, classes[wantClass], 100, "%s: classes %v", pre.Name, classes)
		require.Equal(t, pre.Params.Sync, withSync > 100, "%s: %d programs use locks", pre.Name, withSync)
		if wantClass != model.Recursive {
			require.Zero(t, classes[model.Recursive], pre.Name)
		}
	}
}

func TestFamilies(t *testing.T) {
	require.Contains(t, Families(), "random")
	f, err := Lookup("random")
	require.NoError(t, err)
	src := f.Gen(rand.New(rand.NewPCG(1, 2)), Params{})
	_, err = lang.Compile("random.conc", []byte(src))
	require.NoError(t, err, src)
	_, err = Lookup("nope")
	require.ErrorContains(t, err, `unknown family "nope"`)
}
