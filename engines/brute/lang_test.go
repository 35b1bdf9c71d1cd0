package brute

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/lang"
)

// TestBruteSpecExample runs brute on the .conc programs of docs/spec.md §2: the
// deposit whose read and write are separate critical sections is not
// atomic; with one critical section it is, even with A looping (brute proves
// it: the loop's configurations recur).
func TestBruteSpecExample(t *testing.T) {
	split := `
vars balance
locks m
proc deposit {
  atomic {
    sync m { read balance }
    sync m { write balance }
  }
}
thread A { loop { call deposit } }
thread B { call deposit }
`
	p, err := lang.Compile("bank.conc", []byte(split))
	require.NoError(t, err)
	res := runBrute(t, p, engines.Options{})
	require.Equal(t, engines.Violation, res.Verdict)

	whole := `
vars balance
locks m
proc deposit { atomic { sync m { read balance; write balance } } }
thread A { loop { call deposit } }
thread B[2] { call deposit }
`
	p, err = lang.Compile("bank.conc", []byte(whole))
	require.NoError(t, err)
	res = runBrute(t, p, engines.Options{})
	require.Equal(t, engines.Serializable, res.Verdict, res.Reason)
	res = runBrute(t, p, engines.Options{LockEdges: true})
	require.Equal(t, engines.Serializable, res.Verdict, res.Reason)
}
