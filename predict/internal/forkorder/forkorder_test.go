package forkorder

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict/internal/proj/projtest"
)

// TestPrefilterCases: crypt's shape in small is proved under both
// semantics (fork order rules out the worker reading between the main
// transaction's writes); a trace without fork is not the prefilter's, and
// a violation that needs no lock or join is not proved.
func TestPrefilterCases(t *testing.T) {
	crypt := "0|begin\n0|w(x0)\n0|w(x1)\n0|fork(1)\n1|begin\n1|r(x0)\n1|r(x1)\n1|w(y1)\n1|end\n" +
		"0|w(y0)\n0|r(x0)\n0|end\n"
	violating := "0|fork(1)\n0|begin\n0|r(x)\n1|w(x)\n0|w(x)\n0|end\n"
	noFork := "0|begin\n0|w(x)\n0|end\n1|r(x)\n"
	for _, c := range []struct {
		src  string
		want bool
	}{{crypt, true}, {violating, false}, {noFork, false}} {
		for _, lockEdges := range []bool{false, true} {
			ok, err := Prefilter(context.Background(), firstPass(t, c.src, lockEdges))
			require.NoError(t, err)
			require.Equal(t, c.want, ok, "lock edges %v\n%s", lockEdges, c.src)
		}
	}
}

// firstPass runs predict's first pass on src.
func firstPass(t *testing.T, src string, lockEdges bool) Input {
	s, sp := projtest.FirstPass(t, src)
	return Input{Summary: s, Spool: sp, Users: s.Users(), LockEdges: lockEdges}
}
