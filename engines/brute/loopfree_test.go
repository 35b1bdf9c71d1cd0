package brute

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/internal/enginetest"
)

// TestBruteLoopFreeIsExact: a program without loops or recursion is
// explored whole unless --max-depth is given, so brute's answer is exact
// however long a thread is, not cut at the default depth. A's ten statements make 30 events
// before its transaction, far beyond MaxDepth.
func TestBruteLoopFreeIsExact(t *testing.T) {
	const long = "write z; write z; write z; write z; write z; write z; write z; write z; write z; write z"
	deep := enginetest.Compile(t, `vars x, y, z
thread A { `+long+`; atomic { read x; write x } }
thread B { write x }
thread C { read y }
`)
	require.True(t, deep.LoopFree())
	res := runBrute(t, deep, engines.Options{})
	require.Equal(t, engines.Violation, res.Verdict, res.Reason)
	// The user's bound still bounds: then the answer is unknown.
	res = runBrute(t, deep, engines.Options{MaxDepth: MaxDepth})
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, "no violation within --max-depth 12 events per thread", res.Reason)

	safe := enginetest.Compile(t, `vars x, y, z
thread A { `+long+`; atomic { read x; write x } }
thread B { read x }
thread C { read y; write y }
`)
	res = runBrute(t, safe, engines.Options{})
	require.Equal(t, engines.Serializable, res.Verdict, res.Reason)
	res = runBrute(t, safe, engines.Options{LockEdges: true})
	require.Equal(t, engines.Serializable, res.Verdict, res.Reason)

	// choose branches but does not loop: still loop-free, still exact.
	branch := enginetest.Compile(t, `vars x, z
thread A { `+long+`; choose { atomic { read x; read x } } or { write z } }
thread B { write x }
`)
	require.True(t, branch.LoopFree())
	require.Equal(t, engines.Violation, runBrute(t, branch, engines.Options{}).Verdict)
}

// TestBruteDefaultDepth: the default bound is MaxDepth exactly where a
// thread loops or recurses.
func TestBruteDefaultDepth(t *testing.T) {
	looping := enginetest.Compile(t, "vars x\nthread A { loop { read x } }\nthread B { write x }\n")
	require.False(t, looping.LoopFree())
	require.Equal(t, MaxDepth, defaultDepth(looping))
	recursive := enginetest.Compile(t, "vars x\nproc f { choose { read x; call f } or { skip } }\nthread A { call f }\n")
	require.False(t, recursive.LoopFree())
	require.Equal(t, MaxDepth, defaultDepth(recursive))
	straight := enginetest.Compile(t, "vars x\nthread A { read x }\n")
	require.Greater(t, defaultDepth(straight), 1<<40)
}
