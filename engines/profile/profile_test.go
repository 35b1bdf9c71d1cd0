package profile

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

func TestProfileFigure1(t *testing.T) {
	// T0: [w x; w y]  T1: [r y; r x]: the chain enters T1 at r x and leaves
	// at r y, which comes first in its transaction.
	p := pfProg(2, pfLine("b w0 w1 e"), pfLine("b r1 r0 e"))
	require.Equal(t, engines.Violation, pfCheck(t, p, engines.Options{}))
}

func TestProfileSerializable(t *testing.T) {
	cases := map[string]*model.Program{
		"unary accesses": pfProg(1, pfLine("b w0 e b w0 e"), pfLine("b r0 e b w0 e")),
		"read only":      pfProg(1, pfLine("b r0 r0 e"), pfLine("b r0 r0 e")),
		"disjoint":       pfProg(2, pfLine("b w0 w0 e"), pfLine("b w1 r1 e")),
		"one thread":     pfProg(1, pfLine("b r0 w0 e b r0 w0 e")),
	}
	for name, p := range cases {
		t.Run(name, func(t *testing.T) { require.Equal(t, engines.Serializable, pfCheck(t, p, engines.Options{})) })
	}
}

func TestProfileViolations(t *testing.T) {
	cases := map[string]*model.Program{
		"lost update": pfProg(1, pfLine("b r0 w0 e"), pfLine("b w0 e")),
		"three threads": pfProg(3,
			pfLine("b w0 w2 e"), pfLine("b r0 e b w1 e"), pfLine("b r1 e b r2 e")),
		"unary chain": pfProg(2,
			pfLine("b r0 r1 e"), pfLine("b w0 e b w1 e")),
	}
	for name, p := range cases {
		t.Run(name, func(t *testing.T) { require.Equal(t, engines.Violation, pfCheck(t, p, engines.Options{})) })
	}
}

func TestProfileDistinctThreads(t *testing.T) {
	// T0 [w0 w1]; the chain needs w0 -> T? -> w1 through a thread that reads
	// x0 then writes x1 in different transactions. Only T0 itself has such a
	// pattern, and a thread may not be reused: serializable. A second copy
	// of T0 closes the cycle.
	a := pfLine("b w0 w1 e")
	require.Equal(t, engines.Serializable, pfCheck(t, pfProg(2, a), engines.Options{}))
	require.Equal(t, engines.Violation, pfCheck(t, pfProg(2, a, a), engines.Options{}))
}

func TestProfileNeedsTwoLinks(t *testing.T) {
	// T0 [w0 w2]; x0 -> x1 only through T1, x1 -> x2 only through T2.
	p := pfProg(3, pfLine("b w0 w2 e"), pfLine("b r0 e b w1 e"), pfLine("b r1 e b r2 e"))
	require.Equal(t, engines.Violation, pfCheck(t, p, engines.Options{}))
	res, err := Check(context.Background(), p, engines.Options{})
	require.NoError(t, err)
	require.Len(t, res.Witness.Cycle, 5) // T0→T1, T1 program order, T1→T2, T2 order, T2→T0
	p2 := pfProg(3, pfLine("b w0 w2 e"), pfLine("b r0 e b w1 e"))
	require.Equal(t, engines.Serializable, pfCheck(t, p2, engines.Options{}))
}

func TestProfileLoop(t *testing.T) {
	// loop { [r x; w x] } against itself: a lost update.
	a := &model.Automaton{
		Out: [][]model.Edge{
			{{To: 1, Ev: pfEvent("b")}},
			{{To: 2, Ev: pfEvent("r0")}},
			{{To: 3, Ev: pfEvent("w0")}},
			{{To: 0, Ev: pfEvent("e")}},
		},
		InTxn: []bool{false, true, true, true}, Held: make([][]int32, 4),
	}
	require.Equal(t, engines.Violation, pfCheck(t, pfProg(1, a, a), engines.Options{}))
	require.Equal(t, engines.Serializable, pfCheck(t, pfProg(1, a), engines.Options{}))
}

func TestProfileSupports(t *testing.T) {
	e, err := engines.Lookup("profile")
	require.NoError(t, err)
	locked := pfProg(1, pfLine("b a0 r0 l0 w0 e"), pfLine("b a0 w0 l0 e"))
	err = e.Supports(locked, engines.Options{})
	require.ErrorContains(t, err, "--ignore-sync")
	require.Equal(t, engines.Violation, pfCheck(t, locked, engines.Options{IgnoreSync: true}))
	res, err := e.Check(t.Context(), locked, engines.Options{IgnoreSync: true})
	require.NoError(t, err)
	require.Contains(t, res.Reason, "optimistic")

	rec := pfLine("b r0 e")
	rec.Out[1][0].Stack = model.StackPush
	require.NoError(t, e.Supports(pfProg(1, rec), engines.Options{}), "recursive threads have pushdown profiles (Lemma 4)")
	require.Equal(t, engines.Serializable, pfCheck(t, pfProg(1, rec, rec), engines.Options{}))
}

// pfChoice is choose { [r0] [w1] } or { [r1] [r2] }: it links x0 to x1 or
// x1 to x2, never both.
func pfChoice() *model.Automaton {
	a := &model.Automaton{Out: make([][]model.Edge, 13), InTxn: make([]bool, 13), Held: make([][]int32, 13)}
	for k, branch := range [][]string{{"b", "r0", "e", "b", "w1", "e"}, {"b", "r1", "e", "b", "r2", "e"}} {
		q := int32(0)
		for i, tok := range branch {
			to := int32(1 + 6*k + i)
			a.Out[q] = append(a.Out[q], model.Edge{To: to, Ev: pfEvent(tok)})
			a.InTxn[to] = tok != "e"
			q = to
		}
	}
	return a
}

func TestProfileNoReuse(t *testing.T) {
	// T0 [w0 w2] needs x0 -> x1 -> x2; T1 offers either step, not both.
	p := pfProg(3, pfLine("b w0 w2 e"), pfChoice())
	require.Equal(t, engines.Serializable, pfCheck(t, p, engines.Options{}))
	require.Equal(t, engines.Violation, pfCheck(t, pfProg(3, pfLine("b w0 w2 e"), pfChoice(), pfChoice()), engines.Options{}))
}

func TestProfileLimits(t *testing.T) {
	p := pfChains(8) // serializable only after exploring partial chains
	full, err := Check(t.Context(), p, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, engines.Serializable, full.Verdict)
	require.Greater(t, full.Stats.States, int64(1))
	res, err := Check(t.Context(), p, engines.Options{MaxStates: 1})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Contains(t, res.Reason, "--max-states")
	p = pfProg(4, pfLine("b w0 w3 e"), pfChoice(), pfChoice())
	require.Equal(t, engines.Serializable, pfCheck(t, p, engines.Options{}))
	res, err = Product(t.Context(), p, engines.Options{MaxStates: 1})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
}

func TestProfileEmpty(t *testing.T) {
	require.Equal(t, engines.Serializable, pfCheck(t, pfProg(0), engines.Options{}))
	require.Equal(t, engines.Serializable, pfCheck(t, pfProg(0, pfLine("b e")), engines.Options{}))
}

func TestProfileLockEdgesWithoutLocks(t *testing.T) {
	// --lock-edges changes nothing without lock events; the witness says
	// which relation its cycle is stated in, and replays under it.
	p := pfProg(2, pfLine("b w0 w1 e"), pfLine("b r1 r0 e"))
	require.Equal(t, engines.Violation, pfCheck(t, p, engines.Options{LockEdges: true}))
	res, err := Check(t.Context(), p, engines.Options{LockEdges: true})
	require.NoError(t, err)
	require.True(t, res.Witness.LockEdges)
}
