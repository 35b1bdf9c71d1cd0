package profile

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/verify"
)

// pfEvent parses a token of the profile tests' notation: b, e, s (skip),
// rN / wN (read / write of variable N), aN / lN (acquire / release lock N).
func pfEvent(tok string) model.Event {
	if len(tok) == 1 {
		op := map[byte]model.Op{'b': model.OpBegin, 'e': model.OpEnd, 's': model.OpSkip}[tok[0]]
		return model.Event{Op: op, Target: -1}
	}
	var n int32
	if _, err := fmt.Sscanf(tok[1:], "%d", &n); err != nil {
		panic(err)
	}
	op := map[byte]model.Op{'r': model.OpRead, 'w': model.OpWrite, 'a': model.OpAcquire, 'l': model.OpRelease}[tok[0]]
	return model.Event{Op: op, Target: n, Pos: model.Pos{File: "t.conc", Line: 1, Col: 1}}
}

// pfLine is a straight-line automaton of the given tokens.
func pfLine(spec string) *model.Automaton {
	toks := strings.Fields(spec)
	n := len(toks) + 1
	a := &model.Automaton{Out: make([][]model.Edge, n), InTxn: make([]bool, n), Held: make([][]int32, n)}
	in := false
	for i, t := range toks {
		e := pfEvent(t)
		a.Out[i] = []model.Edge{{To: int32(i + 1), Ev: e}}
		in = (in || e.Op == model.OpBegin) && e.Op != model.OpEnd
		a.InTxn[i+1] = in
	}
	return a
}

// pfProg is a program over nvars variables (and one lock) with threads
// T0, T1, … of the given automata.
func pfProg(nvars int, autos ...*model.Automaton) *model.Program {
	p := &model.Program{Locks: []string{"m"}}
	for v := 0; v < nvars; v++ {
		p.Vars = append(p.Vars, fmt.Sprintf("x%d", v))
	}
	for i, a := range autos {
		p.Threads = append(p.Threads, &model.Thread{Name: fmt.Sprintf("T%d", i), Auto: a})
	}
	return p
}

// pfRandomLine is a random straight-line thread of at most maxTxn
// transactions of at most maxAcc accesses.
func pfRandomLine(r *rand.Rand, nvars, maxTxn, maxAcc int) *model.Automaton {
	var toks []string
	for t := r.Intn(maxTxn + 1); t > 0; t-- {
		toks = append(toks, "b")
		for k := 1 + r.Intn(maxAcc); k > 0; k-- {
			toks = append(toks, fmt.Sprintf("%c%d", "rw"[r.Intn(2)], r.Intn(nvars)))
		}
		toks = append(toks, "e")
	}
	return pfLine(strings.Join(toks, " "))
}

// pfRandomAuto is a random finite automaton that keeps the model's
// transaction invariants (InTxn fixed per state; begin enters, end leaves).
func pfRandomAuto(r *rand.Rand, n, edges, nvars int) *model.Automaton {
	a := &model.Automaton{Out: make([][]model.Edge, n), InTxn: make([]bool, n), Held: make([][]int32, n)}
	for q := 1; q < n; q++ {
		a.InTxn[q] = r.Intn(3) > 0
	}
	for i := 0; i < edges; i++ {
		from, to := r.Intn(n), r.Intn(n)
		tok := "s"
		switch {
		case !a.InTxn[from] && a.InTxn[to]:
			tok = "b"
		case a.InTxn[from] && !a.InTxn[to]:
			tok = "e"
		case a.InTxn[from] && r.Intn(4) > 0:
			tok = fmt.Sprintf("%c%d", "rw"[r.Intn(2)], r.Intn(nvars))
		}
		a.Out[from] = append(a.Out[from], model.Edge{To: int32(to), Ev: pfEvent(tok)})
	}
	return a
}

// pfCheck runs the profile engine (and the product construction) on p,
// asserts they agree and that a violation's witness replays, and returns
// the verdict.
func pfCheck(t testing.TB, p *model.Program, opts engines.Options) engines.Verdict {
	t.Helper()
	e, err := engines.Lookup("profile")
	require.NoError(t, err)
	require.NoError(t, e.Supports(p, opts))
	res, err := e.Check(t.Context(), p, opts)
	require.NoError(t, err)
	prod, err := Product(t.Context(), p, opts)
	require.NoError(t, err)
	require.Equal(t, res.Verdict, prod.Verdict, "chain search and product construction disagree")
	q := p
	if opts.IgnoreSync {
		q = model.DropSync(p)
	}
	for _, r := range []engines.Result{res, prod} {
		if r.Verdict == engines.Violation {
			require.NotNil(t, r.Witness)
			require.NoError(t, verify.Witness(q, r.Witness))
		}
	}
	return res.Verdict
}
