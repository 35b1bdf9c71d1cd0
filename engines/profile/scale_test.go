package profile

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/lang"
)

// manyVars is a program declaring n variables, of which its threads use
// two: one of them recursive (Lemma 4's saturation), one plain.
func manyVars(n int) string {
	var b strings.Builder
	b.WriteString("vars ")
	for x := range n {
		if x > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "v%d", x)
	}
	fmt.Fprintf(&b, `
proc nest { choose { skip } or { read v%d; call nest; write v%d } }
thread A { atomic { call nest } }
thread B { write v%d }
thread C { atomic { read v0; write v0 } }
thread D { write v0 }
`, n-1, n-1, n-1)
	return b.String()
}

// TestProfileManyVariables: the profile engine on 10,000 declared variables
// of which the threads use two allocates a few MB (9 MB; at f9fa863 the
// same check allocated 1.3 GB: profile tables, saturation summaries and the
// chain search's link tables were all v² bits), and finds the violation.
func TestProfileManyVariables(t *testing.T) {
	p, err := lang.Compile("many.conc", []byte(manyVars(10_000)))
	require.NoError(t, err)
	eng, err := engines.Lookup("profile")
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := eng.Check(context.Background(), p, engines.Options{})
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Equal(t, engines.Violation, res.Verdict)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d KiB", alloc>>10)
	require.Less(t, alloc, uint64(16<<20))
}

// TestProfileManyDistinctThreads: the shapes that made predict's chain
// search exponential (deepen.go in package predict), as 30 distinct .conc
// threads. The profile engine's search closes a chain before lengthening
// it and prunes by relevance, so each takes a handful of states; this
// keeps it so.
func TestProfileManyDistinctThreads(t *testing.T) {
	pairs, stuck, three := "vars x\n", "vars x, z\nthread T0 { atomic { write x; write z } }\nthread Tz { read z }\n",
		"vars x, y, z\nthread T0 { atomic { read x; write y } }\n"
	for k := 1; k < 30; k++ {
		pairs += fmt.Sprintf("thread T%d { atomic { read x; write x } }\n", k)
		stuck += fmt.Sprintf("thread T%d { write x }\n", k)
		three += fmt.Sprintf("thread W%d { atomic { write x; write z } }\nthread R%d { atomic { read z; read y } }\n", k, k)
	}
	eng, err := engines.Lookup("profile")
	require.NoError(t, err)
	for _, c := range []struct {
		src  string
		want engines.Verdict
	}{{pairs, engines.Violation}, {stuck, engines.Serializable}, {three, engines.Violation}} {
		p, err := lang.Compile("many.conc", []byte(c.src))
		require.NoError(t, err)
		res, err := eng.Check(context.Background(), p, engines.Options{MaxStates: 1000})
		require.NoError(t, err)
		require.Equal(t, c.want, res.Verdict, "%s\n%s", res.Reason, c.src)
	}
}
