package brute

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/internal/enginetest"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/verify"
)

// runBrute checks p with brute and, for a violation, verifies the witness
// against the program brute checked.
func runBrute(t testing.TB, p *model.Program, opts engines.Options) engines.Result {
	t.Helper()
	e, err := engines.Lookup("brute")
	require.NoError(t, err)
	require.NoError(t, e.Supports(p, opts))
	res, err := e.Check(context.Background(), p, opts)
	require.NoError(t, err)
	require.Equal(t, "brute", res.Engine)
	require.Positive(t, res.Stats.States)
	if res.Verdict == engines.Violation {
		require.NotNil(t, res.Witness)
		checked := p
		if opts.IgnoreSync {
			checked = model.DropSync(p)
		}
		require.NoError(t, verify.Witness(checked, res.Witness))
		require.Equal(t, opts.LockEdges, res.Witness.LockEdges)
	} else {
		require.Nil(t, res.Witness)
	}
	return res
}

func TestBruteFigure1(t *testing.T) {
	p := enginetest.BuildProg(t, "b r:x w:z e", "b w:x r:z e")
	res := runBrute(t, p, engines.Options{})
	require.Equal(t, engines.Violation, res.Verdict)
	w := res.Witness
	require.Len(t, w.Cycle, 2, "T1 -> T2 -> T1")
	require.Len(t, w.Paths, 2)
	// The serializable variant (T2 writes z) has no cyclic run.
	res = runBrute(t, enginetest.BuildProg(t, "b r:x w:z e", "b w:x w:y e"), engines.Options{})
	require.Equal(t, engines.Serializable, res.Verdict, res.Reason)
}

func TestBruteLocks(t *testing.T) {
	one := "b acq:m r:c w:c rel:m e"
	res := runBrute(t, enginetest.BuildProg(t, one, one), engines.Options{})
	require.Equal(t, engines.Serializable, res.Verdict, "one critical section per transaction")
	split := "b acq:m r:c rel:m acq:m w:c rel:m e"
	res = runBrute(t, enginetest.BuildProg(t, split, split), engines.Options{})
	require.Equal(t, engines.Violation, res.Verdict, "split critical sections")
	// A lock held across the whole transaction serializes it even though
	// the transaction reads and writes separately.
	whole := "acq:m b r:c e b w:c e rel:m"
	res = runBrute(t, enginetest.BuildProg(t, whole, whole), engines.Options{})
	require.Equal(t, engines.Serializable, res.Verdict)
}

func TestBruteUnaryTransactions(t *testing.T) {
	res := runBrute(t, enginetest.BuildProg(t, "b r:x r:x e", "b w:x e"), engines.Options{})
	require.Equal(t, engines.Violation, res.Verdict, "a unary write between two reads of one transaction")
	res = runBrute(t, enginetest.BuildProg(t, "b r:x e b r:x e", "b w:x e"), engines.Options{})
	require.Equal(t, engines.Serializable, res.Verdict, "two unary transactions cannot be split")
}

func TestBruteLockEdges(t *testing.T) {
	p := enginetest.BuildProg(t, "b acq:l rel:l acq:l rel:l e", "acq:l rel:l")
	res := runBrute(t, p, engines.Options{})
	require.Equal(t, engines.Serializable, res.Verdict, "locks make no conflict by default")
	res = runBrute(t, p, engines.Options{LockEdges: true})
	require.Equal(t, engines.Violation, res.Verdict, "release -> acquire edges both ways")
	require.True(t, res.Witness.LockEdges)
}

func TestBruteForkJoin(t *testing.T) {
	// T2 exists only after the fork, which comes after T1's transaction.
	p := enginetest.BuildProg(t, "b r:x r:x e fork:T2", "b w:x e")
	require.Equal(t, engines.Serializable, runBrute(t, p, engines.Options{}).Verdict)
	res := runBrute(t, p, engines.Options{IgnoreSync: true})
	require.Equal(t, engines.Violation, res.Verdict, "--ignore-sync drops the fork")
	require.Contains(t, res.Reason, "--ignore-sync")
	// Join: T2 finished before T1's transaction.
	p = enginetest.BuildProg(t, "join:T2 b r:x r:x e", "b w:x e")
	require.Equal(t, engines.Serializable, runBrute(t, p, engines.Options{}).Verdict)
	// With lock edges fork and join inside a transaction close a cycle.
	p = enginetest.BuildProg(t, "b fork:T2 join:T2 e", "b w:x e")
	require.Equal(t, engines.Serializable, runBrute(t, p, engines.Options{}).Verdict)
	res = runBrute(t, p, engines.Options{LockEdges: true})
	require.Equal(t, engines.Violation, res.Verdict)
}

func TestBruteRegularLoop(t *testing.T) {
	// T1 repeats a two-read transaction; the cycle needs its third event.
	loop := "@ 0>1 b; 1>2 r:x; 2>3 r:x; 3>0 e"
	p := enginetest.BuildProg(t, loop, "b w:x e")
	require.Equal(t, engines.Violation, runBrute(t, p, engines.Options{}).Verdict)
	res := runBrute(t, p, engines.Options{MaxDepth: 2})
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, "no violation within --max-depth 2 events per thread", res.Reason)
	// A loop of one-read transactions is serializable, and brute proves it:
	// the configuration recurs with more events and is subsumed.
	res = runBrute(t, enginetest.BuildProg(t, "@ 0>1 b; 1>2 r:x; 2>0 e", "b w:x e"), engines.Options{})
	require.Equal(t, engines.Serializable, res.Verdict, res.Reason)
}

func TestBruteEpsilonLoops(t *testing.T) {
	// Choice and looping through epsilon moves, including an epsilon
	// self-loop, which must not hide the other thread (ignoring problem).
	p := enginetest.BuildProg(t, "@ 0>0 skip; 0>1 skip; 1>2 b; 2>3 r:x; 3>4 r:x; 4>5 e", "b w:x e")
	res := runBrute(t, p, engines.Options{})
	require.Equal(t, engines.Violation, res.Verdict)
	p = enginetest.BuildProg(t, "@ 0>0 skip", "b w:x e", "b r:x r:x e")
	require.Equal(t, engines.Violation, runBrute(t, p, engines.Options{}).Verdict)
	// At state 8 T1 may stop (epsilon to 7) or start a second transaction,
	// which --max-depth 3 refuses: the answer must not be serializable.
	p = enginetest.BuildProg(t, "@ 0>1 b; 1>2 r:y; 2>8 e; 8>7 skip; 8>3 b; 3>4 r:x; 4>5 r:x; 5>6 e", "b w:x e")
	res = runBrute(t, p, engines.Options{MaxDepth: 3})
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, engines.Violation, runBrute(t, p, engines.Options{MaxDepth: 6}).Verdict)
}

func TestBrutePushdown(t *testing.T) {
	// T1 calls (push), reads x, returns (pop), reads x again, in one txn.
	rec := "@ 0>1 b; 1>2 skip/push:d; 2>3 r:x; 3>4 skip/pop:d; 4>5 r:x; 5>6 e"
	res := runBrute(t, enginetest.BuildProg(t, rec, "b w:x e"), engines.Options{})
	require.Equal(t, engines.Violation, res.Verdict)
	require.GreaterOrEqual(t, len(res.Witness.Paths[0]), 4, "the path shows the call")
	// Unbounded recursion before a harmless transaction: the stack bound
	// cuts the search.
	deep := "@ 0>0 skip/push:d; 0>1 b; 1>2 r:x; 2>3 e; 3>3 skip/pop:d"
	res = runBrute(t, enginetest.BuildProg(t, deep, "b w:x e"), engines.Options{MaxStack: 3})
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, "no violation within --max-stack 3 stack symbols", res.Reason)
}

func TestBruteLimits(t *testing.T) {
	p := enginetest.BuildProg(t, "b r:x w:y e", "b r:y w:z e", "b r:z r:z e")
	res := runBrute(t, p, engines.Options{MaxStates: 3})
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, "no violation within --max-states 3 states", res.Reason)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Check(ctx, p, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, "no violation before the timeout", res.Reason)
}

func TestBruteBadProgram(t *testing.T) {
	p := enginetest.BuildProg(t, "b r:x e")
	p.Threads[0].Auto.Out[1][0].Ev.Target = 7
	_, err := Check(context.Background(), p, engines.Options{})
	require.ErrorContains(t, err, "read target 7 out of range")
	require.Error(t, supports(nil, engines.Options{}))
	// A program without threads is not malformed: its one run is empty
	// (docs/spec.md §5: serializable, with a note).
	require.NoError(t, supports(&model.Program{}, engines.Options{}))
	res, err := Check(context.Background(), &model.Program{}, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, engines.Serializable, res.Verdict)
}
