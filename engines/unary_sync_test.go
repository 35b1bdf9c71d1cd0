package engines_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all"
	"github.com/conc-dev/conc/engines/internal/enginetest"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/verify"
)

// lockEdgesProgram has lock events outside any transaction, which with
// lock edges are unary transactions.
const lockEdgesProgram = `locks m
vars x
thread A { acquire m; release m; atomic { read x; write x } }
thread B { acquire m; release m; write x }
`

// TestWitnessWrapsUnarySync: under --lock-edges every engine that can meet
// a lock event outside a transaction writes it in its witness as the unary
// transaction it is, begin, the event, end, at the event's position, as a
// bare access is written; without lock edges it stays bare. The witnesses
// also pass verify.Witness, which rejects the bare form under lock edges.
func TestWitnessWrapsUnarySync(t *testing.T) {
	p := enginetest.Compile(t, lockEdgesProgram)
	for _, name := range []string{"brute", "global"} {
		e, err := engines.Lookup(name)
		require.NoError(t, err)
		for _, lockEdges := range []bool{true, false} {
			res, err := e.Check(t.Context(), p, engines.Options{LockEdges: lockEdges})
			require.NoError(t, err)
			require.Equal(t, engines.Violation, res.Verdict, "%s lock edges %v", name, lockEdges)
			require.NoError(t, verify.Witness(p, res.Witness), "%s lock edges %v", name, lockEdges)
			syncs := requireUnarySync(t, res.Witness, lockEdges)
			require.Positive(t, syncs, "%s: the witness has lock events", name)
		}
	}
}

// requireUnarySync checks the witness of a program whose lock events all
// lie outside transactions: each is wrapped in its thread's begin and end
// at its position with lock edges, and bare without. It returns how many
// there are.
func requireUnarySync(t *testing.T, w *model.Witness, lockEdges bool) int {
	t.Helper()
	n := 0
	for i, s := range w.Run {
		if !s.Ev.Op.IsSync() {
			continue
		}
		n++
		before, after := threadNeighbours(w.Run, i)
		if !lockEdges {
			require.False(t, before >= 0 && w.Run[before].Ev.Op == model.OpBegin && w.Run[before].Ev.Pos == s.Ev.Pos,
				"event %d wrapped without lock edges", i)
			continue
		}
		require.GreaterOrEqual(t, before, 0, "event %d: no begin before it", i)
		require.GreaterOrEqual(t, after, 0, "event %d: no end after it", i)
		require.Equal(t, model.Event{Op: model.OpBegin, Target: -1, Pos: s.Ev.Pos}, w.Run[before].Ev, "event %d", i)
		require.Equal(t, model.Event{Op: model.OpEnd, Target: -1, Pos: s.Ev.Pos}, w.Run[after].Ev, "event %d", i)
	}
	return n
}

// threadNeighbours are the run indices of the events of run[i]'s thread
// just before and after it (-1: none).
func threadNeighbours(run []model.Step, i int) (before, after int) {
	before, after = -1, -1
	for j := i - 1; j >= 0 && before < 0; j-- {
		if run[j].Thread == run[i].Thread {
			before = j
		}
	}
	for j := i + 1; j < len(run) && after < 0; j++ {
		if run[j].Thread == run[i].Thread {
			after = j
		}
	}
	return before, after
}
