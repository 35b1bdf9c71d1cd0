package monitor

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/testkit/ordertrace"
	"github.com/conc-dev/conc/trace"
	"github.com/stretchr/testify/require"
)

// The ordering extension (docs/spec.md §3): on random traces with read
// locks and messages, the monitor agrees with the naive conflict graph,
// whose lock edges then include release -> read-acquire, read-release ->
// acquire and post -> wait, in every collector setting, with the cycles it
// lists checked edge by edge.
func TestOrderingsAgainstNaive(t *testing.T) {
	n := testflag.N(300, 3000)
	rng := rand.New(rand.NewPCG(7, 7))
	violations := 0
	for range n {
		seed := rng.Uint64()
		evs := ordertrace.Events(seed, 20+rng.IntN(60), 2+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(2), 1+rng.IntN(3))
		v, _ := checkEventsAgainstNaive(t, evs, fmt.Sprintf("ordering seed %d", seed), naiveConfigs)
		violations += v
	}
	require.Greater(t, violations, n/10)
	require.Less(t, violations, 2*n-n/10)
}

// The generator's traces are valid: the reader takes their text, under
// Options.Orderings, without a complaint and with every event.
func TestOrderingEventsAreValid(t *testing.T) {
	for seed := range uint64(200) {
		evs := ordertrace.Events(seed, 80, 3, 2, 2, 2)
		var b []byte
		for _, e := range evs {
			b = trace.AppendSTD(b, e, trace.GenName)
		}
		r, err := trace.NewReader(strings.NewReader(string(b)), "g.std", trace.Options{Orderings: true})
		require.NoError(t, err)
		got := 0
		for {
			if _, err := r.Next(); err != nil {
				require.Equal(t, "EOF", err.Error(), "seed %d\n%s", seed, b)
				break
			}
			got++
		}
		require.Equal(t, len(evs), got, "seed %d", seed)
	}
}

// Each ordering makes a cycle only under lock edges: T1's transaction
// posts between its two accesses, T2 waits for the post and then writes
// x, which T1 reads afterwards; likewise a read release before a write
// acquire, and a release before a read acquire.
func TestOrderingEdges(t *testing.T) {
	for _, src := range []string{
		"T1|begin\nT1|r(x)\nT1|post(m)\nT2|wait(m)\nT2|w(y)\nT1|r(y)\nT1|end\n",
		"T1|begin\nT1|racq(l)\nT1|rrel(l)\nT2|acq(l)\nT2|w(y)\nT2|rel(l)\nT1|r(y)\nT1|end\n",
		"T1|begin\nT1|acq(l)\nT1|rel(l)\nT2|racq(l)\nT2|w(y)\nT2|rrel(l)\nT1|r(y)\nT1|end\n",
	} {
		evs := readOrdered(t, src)
		require.False(t, runMonitor(evs, TraceOptions{}, 1, ^uint64(0)).Violation, src)
		res := runMonitor(evs, TraceOptions{LockEdges: true}, 1, ^uint64(0))
		require.True(t, res.Violation, src)
		require.Equal(t, int64(len(evs)-1), res.First, src)
	}
	// Read holds are shared: two readers' releases and acquires order
	// nothing between them.
	src := "T1|begin\nT1|racq(l)\nT1|rrel(l)\nT2|racq(l)\nT2|w(y)\nT2|rrel(l)\nT1|r(y)\nT1|end\n"
	require.False(t, runMonitor(readOrdered(t, src), TraceOptions{LockEdges: true}, 1, ^uint64(0)).Violation)
}

func readOrdered(t *testing.T, src string) []trace.Event {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	var evs []trace.Event
	for {
		ev, err := r.Next()
		if err != nil {
			require.Equal(t, "EOF", err.Error())
			return evs
		}
		evs = append(evs, ev)
	}
}
