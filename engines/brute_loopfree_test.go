package engines

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

// compileConc compiles a .conc source for a test.
func compileConc(t *testing.T, src string) *model.Program {
	t.Helper()
	p, err := lang.Compile("loopfree.conc", []byte(src))
	require.NoError(t, err)
	return p
}

// TestBruteLoopFreeIsExact: a program without loops or recursion is
// explored whole unless --max-depth is given, so brute's answer is exact
// however long a thread is (issue 14). A's ten statements make 30 events
// before its transaction, far beyond BruteMaxDepth.
func TestBruteLoopFreeIsExact(t *testing.T) {
	const long = "write z; write z; write z; write z; write z; write z; write z; write z; write z; write z"
	deep := compileConc(t, `vars x, y, z
thread A { `+long+`; atomic { read x; write x } }
thread B { write x }
thread C { read y }
`)
	require.True(t, deep.LoopFree())
	res := runBrute(t, deep, Options{})
	require.Equal(t, Violation, res.Verdict, res.Reason)
	// The user's bound still bounds: then the answer is unknown.
	res = runBrute(t, deep, Options{MaxDepth: BruteMaxDepth})
	require.Equal(t, Unknown, res.Verdict)
	require.Equal(t, "no violation within --max-depth 12 events per thread", res.Reason)

	safe := compileConc(t, `vars x, y, z
thread A { `+long+`; atomic { read x; write x } }
thread B { read x }
thread C { read y; write y }
`)
	res = runBrute(t, safe, Options{})
	require.Equal(t, Serializable, res.Verdict, res.Reason)
	res = runBrute(t, safe, Options{LockEdges: true})
	require.Equal(t, Serializable, res.Verdict, res.Reason)

	// choose branches but does not loop: still loop-free, still exact.
	branch := compileConc(t, `vars x, z
thread A { `+long+`; choose { atomic { read x; read x } } or { write z } }
thread B { write x }
`)
	require.True(t, branch.LoopFree())
	require.Equal(t, Violation, runBrute(t, branch, Options{}).Verdict)
}

// TestBruteDefaultDepth: the default bound is BruteMaxDepth exactly where a
// thread loops or recurses.
func TestBruteDefaultDepth(t *testing.T) {
	looping := compileConc(t, "vars x\nthread A { loop { read x } }\nthread B { write x }\n")
	require.False(t, looping.LoopFree())
	require.Equal(t, BruteMaxDepth, bruteDefaultDepth(looping))
	recursive := compileConc(t, "vars x\nproc f { choose { read x; call f } or { skip } }\nthread A { call f }\n")
	require.False(t, recursive.LoopFree())
	require.Equal(t, BruteMaxDepth, bruteDefaultDepth(recursive))
	straight := compileConc(t, "vars x\nthread A { read x }\n")
	require.Greater(t, bruteDefaultDepth(straight), 1<<40)
}
