package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/conc-dev/conc/model"
	"github.com/stretchr/testify/require"
)

// straightLine writes one thread of n statements, a mix of unary accesses,
// atomic blocks and sync blocks, as generated benchmarks look. It declares
// nothing, so its names are declared by use.
func straightLine(n int) []byte {
	var b strings.Builder
	b.WriteString("thread T {\n")
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0, 1:
			fmt.Fprintf(&b, "  read x%d\n", i%100)
		case 2:
			fmt.Fprintf(&b, "  atomic { write x%d; read y }\n", i%100)
		default:
			b.WriteString("  sync m { write y }\n")
		}
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// TestLongStraightLine: a long thread compiles to a chain without epsilon
// edges.
func TestLongStraightLine(t *testing.T) {
	const n = 300_001
	p, err := Compile("long.conc", straightLine(n))
	require.NoError(t, err)
	a := p.Threads[0].Auto
	require.Equal(t, model.StraightLine, model.ClassOf(a))
	events, epsilons, branching := 0, 0, 0
	for _, es := range a.Out {
		if len(es) > 1 {
			branching++
		}
		for _, e := range es {
			if e.Ev.Op == model.OpSkip {
				epsilons++
			}
			events++
		}
	}
	require.Zero(t, branching)
	require.Zero(t, epsilons)
	// Per four statements: two unary accesses (3 events each), an atomic
	// block (4), a sync block around a unary write (5); then one more read.
	require.Equal(t, (n/4)*15+3, events)
	require.Equal(t, "y", p.Vars[3])
}

// BenchmarkCompileStraightLine compiles a 10^6-statement thread and reports
// statements per second.
func BenchmarkCompileStraightLine(b *testing.B) {
	const n = 1_000_000
	src := straightLine(n)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Compile("bench.conc", src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "stmts/s")
}
