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

// deepBarred is T0 holding n nested locks l0..l(n-1) around its read of x,
// then releasing all but l0 and writing x (case B, W = {l0}), several
// times, a transaction each; T1 takes l(n-1), then l0 inside it, releases
// l0 and writes x: barrier 2 (T0 took l(n-1) inside l0 before its read) bars every
// pattern, so step 5c proves that none exists.
func deepBarred(n int) string {
	var b strings.Builder
	for range 3 {
		b.WriteString("T0|begin\n")
		for i := range n {
			fmt.Fprintf(&b, "T0|acq(l%d)\n", i)
		}
		b.WriteString("T0|r(x)\n")
		for i := n - 1; i > 0; i-- {
			fmt.Fprintf(&b, "T0|rel(l%d)\n", i)
		}
		b.WriteString("T0|w(x)\nT0|rel(l0)\nT0|end\n")
	}
	fmt.Fprintf(&b, "T1|acq(l%d)\nT1|acq(l0)\nT1|rel(l0)\nT1|w(x)\nT1|rel(l%d)\n", n-1, n-1)
	return b.String()
}

// passWork runs both passes of the decision on src, with no deadline and the
// default limits, and reports their work (the first pass's acquires and
// history entries, the second's classes met and locks looked up), whether
// both read the whole trace and the patterns found.
func passWork(t *testing.T, src string) (work int64, whole bool, found int) {
	s, sp := projtest.FirstPass(t, src)
	nx, ok, err := Index(s, sp, MaxSize, func() bool { return false })
	require.NoError(t, err)
	if !ok {
		return 0, false, 0
	}
	m := NewMeeter(s, nx, func() bool { return false })
	whole, err = proj.SpoolEach(sp, m.Over, func(ev *trace.Event) bool {
		return m.Step(ev, func(Find) bool { found++; return true })
	})
	require.NoError(t, err)
	return nx.work + m.work, whole, found
}

// TestDeepNestingLinear: step 5c's work grows linearly with the
// nesting depth. Acquisition histories are a depth per inner lock, so an
// acquire updates one entry and a history has one per lock. An acquire
// that looked at every section held, each section listing every lock
// acquired inside it, would be quadratic (5·10⁷ lock pairs at depth
// 10,000, past the first pass's limit).
func TestDeepNestingLinear(t *testing.T) {
	for _, shape := range []struct {
		name  string
		src   func(int) string
		found bool
	}{{"case A", projtest.DeepNesting, true}, {"barrier 2", deepBarred, false}} {
		small, whole, found := passWork(t, shape.src(1_000))
		require.True(t, whole, shape.name)
		require.Equal(t, shape.found, found > 0, shape.name)
		large, whole, found := passWork(t, shape.src(10_000))
		require.True(t, whole, shape.name)
		require.Equal(t, shape.found, found > 0, shape.name)
		t.Logf("%s: work %d at depth 1,000, %d at 10,000", shape.name, small, large)
		require.Less(t, large, 15*small, "%s: work %d at depth 1,000, %d at 10,000", shape.name, small, large)
	}
}
