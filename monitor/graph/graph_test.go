package graph

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// parseRun reads a run written as "T:op[:target] ...", e.g. "0:b 0:r:x 1:w:x".
// Ops: b e r w acq rel fork join; variables and locks are single letters
// (their index is letter-'a'), fork/join targets thread numbers.
func parseRun(t testing.TB, s string) []model.Step {
	t.Helper()
	var run []model.Step
	for _, tok := range strings.Fields(s) {
		parts := strings.Split(tok, ":")
		th, err := strconv.Atoi(parts[0])
		require.NoError(t, err, tok)
		ev := model.Event{Target: -1}
		ops := map[string]model.Op{"b": model.OpBegin, "e": model.OpEnd, "r": model.OpRead,
			"w": model.OpWrite, "acq": model.OpAcquire, "rel": model.OpRelease,
			"fork": model.OpFork, "join": model.OpJoin}
		op, ok := ops[parts[1]]
		require.True(t, ok, tok)
		ev.Op = op
		if op.HasTarget() {
			require.Len(t, parts, 3, tok)
			if n, err := strconv.Atoi(parts[2]); err == nil {
				ev.Target = int32(n)
			} else {
				ev.Target = int32(parts[2][0] - 'a')
			}
		}
		run = append(run, model.Step{Thread: int32(th), Ev: ev})
	}
	return run
}

// feed steps the whole run and returns the index of the first step that
// closed a cycle (-1 if none) with that cycle.
func feed(t testing.TB, g *Graph, run []model.Step) (int, []model.Conflict) {
	t.Helper()
	for i, s := range run {
		cyc, err := g.Step(s)
		require.NoError(t, err)
		if cyc != nil {
			return i, cyc
		}
	}
	return -1, nil
}

func TestFigure1(t *testing.T) {
	// T0: ▷ read x, write z ◁ interleaved with T1: ▷ write x, read z ◁.
	run := parseRun(t, "0:b 0:r:x 1:b 1:w:x 1:r:z 1:e 0:w:z 0:e")
	at, cyc := feed(t, New(false), run)
	require.Equal(t, 6, at, "the cycle closes at T0's write of z")
	require.Equal(t, []model.Conflict{{From: 1, To: 3}, {From: 4, To: 6}}, cyc)
	checkCycle(t, run, cyc, false)
}

func TestSerialRunIsCollected(t *testing.T) {
	run := parseRun(t, "0:b 0:r:x 0:w:z 0:e 1:b 1:w:x 1:r:z 1:e 0:b 0:w:x 0:e")
	g := New(false)
	at, _ := feed(t, g, run)
	require.Equal(t, -1, at)
	require.Equal(t, 0, g.Live(), "every completed source is collected, transitively")
	require.Equal(t, 0, g.NumEdges())
}

func TestOpenTransactionKeepsSuccessors(t *testing.T) {
	// T0's open transaction precedes T1's two transactions: they must stay.
	run := parseRun(t, "0:b 0:r:x 1:b 1:w:x 1:e 1:b 1:r:y 1:e")
	g := New(false)
	at, _ := feed(t, g, run)
	require.Equal(t, -1, at)
	require.Equal(t, 3, g.Live())
	// ... and T0 writing y closes T0 -> T1 -> T1' -> T0.
	cyc, err := g.Step(parseRun(t, "0:w:y")[0])
	require.NoError(t, err)
	require.Len(t, cyc, 3)
	checkCycle(t, append(run, parseRun(t, "0:w:y")...), cyc, false)
}

func TestUnaryTransactions(t *testing.T) {
	// The write of x outside a transaction is a transaction of its own.
	run := parseRun(t, "0:b 0:r:x 1:w:x 0:r:x 0:e")
	at, cyc := feed(t, New(false), run)
	require.Equal(t, 3, at)
	checkCycle(t, run, cyc, false)
	// Two unary accesses of T0 in a row are two transactions: no cycle.
	run = parseRun(t, "0:r:x 1:w:x 0:r:x")
	at, _ = feed(t, New(false), run)
	require.Equal(t, -1, at)
}

func TestNestedBeginEndFlatten(t *testing.T) {
	run := parseRun(t, "0:b 0:b 0:r:x 0:e 1:w:x 1:w:y 0:r:y 0:e")
	g := New(false)
	at, cyc := feed(t, g, run)
	require.Equal(t, 6, at, "the inner end does not close the transaction")
	checkCycle(t, run, cyc, false)
	// A stray end belongs to no transaction.
	at, _ = feed(t, New(false), parseRun(t, "0:e 1:w:x 0:e"))
	require.Equal(t, -1, at)
}

func TestLockEdges(t *testing.T) {
	run := parseRun(t, "0:b 0:acq:l 0:rel:l 1:acq:l 1:rel:l 0:acq:l 0:rel:l 0:e")
	at, _ := feed(t, New(false), run)
	require.Equal(t, -1, at, "without lock edges locks make no conflict")
	at, cyc := feed(t, New(true), run)
	require.Equal(t, 5, at)
	checkCycle(t, run, cyc, true)
}

func TestForkJoinEdges(t *testing.T) {
	run := parseRun(t, "0:b 0:fork:1 1:w:x 0:join:1 0:e")
	at, _ := feed(t, New(false), run)
	require.Equal(t, -1, at)
	at, cyc := feed(t, New(true), run)
	require.Equal(t, 3, at)
	require.Equal(t, []model.Conflict{{From: 1, To: 2}, {From: 2, To: 3}}, cyc)
	checkCycle(t, run, cyc, true)
}

func TestBadSteps(t *testing.T) {
	g := New(false)
	_, err := g.Step(model.Step{Thread: -1, Ev: model.Event{Op: model.OpBegin, Target: -1}})
	require.ErrorContains(t, err, "negative thread")
	_, err = g.Step(model.Step{Thread: 0, Ev: model.Event{Op: model.OpRead, Target: -1}})
	require.ErrorContains(t, err, "negative target")
	_, err = g.Step(model.Step{Thread: 0, Ev: model.Event{Op: 42}})
	require.ErrorContains(t, err, "unknown op")
	require.Equal(t, 0, g.Len(), "bad steps leave the graph unchanged")
}

func TestCloneIsIndependent(t *testing.T) {
	g := New(false)
	feed(t, g, parseRun(t, "0:b 0:r:x 1:b 1:w:x"))
	h := g.Clone()
	require.Equal(t, g.AppendKey(nil), h.AppendKey(nil))
	at, _ := feed(t, h, parseRun(t, "1:r:z 1:e 0:w:z"))
	require.Equal(t, 2, at)
	require.False(t, g.Cyclic())
	require.True(t, h.Cyclic())
	require.Equal(t, 4, g.Len())
	require.NotEqual(t, g.AppendKey(nil), h.AppendKey(nil))
}

func TestKeyIsCanonical(t *testing.T) {
	// Different orders of the same independent transactions reach the same
	// abstract graph; open status and access sets distinguish graphs.
	a, b := New(false), New(false)
	feed(t, a, parseRun(t, "0:b 0:r:x 1:b 1:r:y 1:e 2:b 2:w:z"))
	feed(t, b, parseRun(t, "2:b 2:w:z 1:b 1:r:y 1:e 0:b 0:r:x"))
	require.Equal(t, a.AppendKey(nil), b.AppendKey(nil))
	c := New(false)
	feed(t, c, parseRun(t, "0:b 0:w:x 2:b 2:w:z"))
	require.NotEqual(t, a.AppendKey(nil), c.AppendKey(nil))
	d := New(false)
	feed(t, d, parseRun(t, "0:b 0:r:x 0:e 2:b 2:w:z"))
	e := New(false)
	feed(t, e, parseRun(t, "2:b 2:w:z"))
	require.Equal(t, e.AppendKey(nil), d.AppendKey(nil), "T0's completed source is collected")
}

func TestKeyForgetsCompletedHistory(t *testing.T) {
	// While T1 stays open, T0's completed transactions pile up in the graph,
	// but what T1 reaches (a read of x by T0) stays the same.
	a, b := New(false), New(false)
	feed(t, a, parseRun(t, "1:b 1:w:x 0:b 0:r:x 0:e"))
	feed(t, b, parseRun(t, "1:b 1:w:x 0:b 0:r:x 0:e 0:b 0:r:x 0:e 0:b 0:r:x 0:e"))
	require.Equal(t, 2, a.Live())
	require.Equal(t, 4, b.Live())
	require.Equal(t, a.AppendKey(nil), b.AppendKey(nil))
	// Past 64 transactions the reachability sets take several words.
	long := "1:b 1:w:x"
	for i := 0; i < 100; i++ {
		long += " 0:b 0:r:x 0:e"
	}
	c := New(false)
	feed(t, c, parseRun(t, long))
	require.Equal(t, 101, c.Live())
	require.Equal(t, a.AppendKey(nil), c.AppendKey(nil))
	feed(t, c, parseRun(t, "0:b 0:r:y 0:e"))
	require.NotEqual(t, a.AppendKey(nil), c.AppendKey(nil), "T1 now reaches a read of y")
}
