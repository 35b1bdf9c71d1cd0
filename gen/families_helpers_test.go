package gen

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/verify"
)

// compile compiles a generated program, failing the test with its text.
func compile(t *testing.T, src string) *model.Program {
	t.Helper()
	p, err := lang.Compile("gen.conc", []byte(src))
	require.NoError(t, err, src)
	return p
}

// decide runs engine name on p under opts with a generous deadline and
// checks any witness against the program (package verify shares no code
// with the engines).
func decide(t *testing.T, name string, p *model.Program, opts engines.Options) engines.Result {
	t.Helper()
	e, err := engines.Lookup(name)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := e.Check(ctx, p, opts)
	require.NoError(t, err)
	if res.Verdict == engines.Violation {
		require.NoError(t, verify.Witness(p, res.Witness), "engine %s's witness", name)
	}
	return res
}

// without returns p with thread i removed (its automaton is untouched; the
// others keep theirs).
func without(p *model.Program, i int) *model.Program {
	q := *p
	q.Threads = append(append([]*model.Thread{}, p.Threads[:i]...), p.Threads[i+1:]...)
	return &q
}
