package nested

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/trace"
)

// TestHistoriesBounded: acquisition histories are sets of locks. In
// a long section taking one of three inner locks in a loop, every context
// has at most the three pairs (o, l) in each history (a list of every
// acquire would hold 1,000 at the end: quadratic time and memory). With a
// new inner lock every stretch the histories do grow with the section, and
// the first pass charges them to its budget (MaxSize), which a class count
// alone would leave quadratic and unbounded.
func TestHistoriesBounded(t *testing.T) {
	index := func(src string) *Indexer {
		s, sp := projtest.FirstPass(t, src)
		nx, ok, err := Index(s, sp, MaxSize, func() bool { return false })
		require.NoError(t, err)
		require.True(t, ok)
		return nx
	}
	nx := index(projtest.LongSection(1000, 3))
	classes := 0
	for _, list := range nx.idx {
		for _, c := range list {
			require.LessOrEqual(t, len(c.ctx.back), 3)
			require.LessOrEqual(t, len(c.ctx.fwd), 3)
			classes++
		}
	}
	require.Positive(t, classes)

	const n = 500
	nx = index(projtest.LongSection(n, n))
	require.Greater(t, nx.size, int64(n*n/25)) // n²/2 pairs of two words each
}

// TestMeetingStopsInEvent: T0 writes x under o and a new inner lock
// each time (3,000 classes of x, T1's lock o bars each), and T1 reads x
// 3,000 times holding o. The meeting's work limit (64 per event and 10⁶)
// is crossed inside T1's reads; the pass ends within 1,024 classes of it.
// Before, the limit was looked at every 4,096 events only: a variable
// with millions of classes ran billions of steps past it, and past the
// deadline.
func TestMeetingStopsInEvent(t *testing.T) {
	const n = 3000
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "T0|acq(o)\nT0|acq(l%d)\nT0|w(x)\nT0|rel(l%d)\nT0|rel(o)\n", i, i)
	}
	b.WriteString("T1|begin\nT1|acq(o)\n" + strings.Repeat("T1|r(x)\n", n) + "T1|rel(o)\nT1|end\n")
	s, sp := projtest.FirstPass(t, b.String())
	nx, ok, err := Index(s, sp, MaxSize, func() bool { return false })
	require.NoError(t, err)
	require.True(t, ok)
	m := NewMeeter(s, nx, func() bool { return false })
	whole, err := proj.SpoolEach(sp, m.Over, func(ev *trace.Event) bool {
		return m.Step(ev, func(Find) bool { t.Fatal("a pattern"); return false })
	})
	require.NoError(t, err)
	require.False(t, whole)
	require.Greater(t, m.work, m.limit)
	require.Less(t, m.work, m.limit+4*1024) // 1,024 classes and their lookups
}
