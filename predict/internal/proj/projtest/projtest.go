// Package projtest is what the tests of predict's finders share: predict's
// first pass over an STD text, and the trace shapes several of them run
// on. Only test files import it.
package projtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// FirstPass is the projection predict builds of src in its first pass:
// the summary, and the spool every later pass reads (closed when the test
// ends).
func FirstPass(t testing.TB, src string) (*proj.Summary, *proj.Spool) {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	sp, err := proj.NewSpool(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { sp.Close() })
	s, err := proj.Collect(context.Background(), r, sp)
	require.NoError(t, err)
	return s, sp
}

// LongSection is thread T0 holding o over n stretches, each taking inner
// lock l(i mod locks) and writing x(i mod 50); T1 reads x1 twice in a
// transaction.
func LongSection(n, locks int) string {
	var b strings.Builder
	b.WriteString("T0|acq(o)\n")
	for i := range n {
		fmt.Fprintf(&b, "T0|acq(l%d)\nT0|w(x%d)\nT0|rel(l%d)\n", i%locks, i%50, i%locks)
	}
	b.WriteString("T0|rel(o)\nT1|begin\nT1|r(x1)\nT1|r(x1)\nT1|end\n")
	return b.String()
}

// DeepNesting is one thread holding n nested locks around its read of x,
// in a transaction that writes x after releasing them, and another
// thread's write of x.
func DeepNesting(n int) string {
	var b strings.Builder
	b.WriteString("T0|begin\n")
	for i := range n {
		fmt.Fprintf(&b, "T0|acq(l%d)\n", i)
	}
	b.WriteString("T0|r(x)\n")
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "T0|rel(l%d)\n", i)
	}
	b.WriteString("T0|w(x)\nT0|end\nT1|w(x)\n")
	return b.String()
}
