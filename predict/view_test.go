package predict

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/monitor/view"
	"github.com/conc-dev/conc/predict/internal/tuning"
	"github.com/conc-dev/conc/trace"
)

// A lost update: T2's write falls between T1's read and its write of x.
const lostUpdate = "T1|begin\nT1|r(x)\nT2|w(x)\nT1|w(x)\nT1|end\n"

func TestViewLostUpdate(t *testing.T) {
	out := predictString(t, lostUpdate, Options{Criterion: View})
	res := out.Result
	require.Equal(t, engines.Violation, res.Verdict, res.Reason)
	require.Equal(t, ViewEngine, res.Engine)
	require.Contains(t, res.Reason, "T1#1 (lines 1-5) and T2#1 (line 3) are not view-serializable as a pair in this run")
	require.Contains(t, res.Reason, "T2's last write of x at line 3 falls between T1's read of it at line 2 and its write at line 4")
	require.NotContains(t, res.Reason, "may be view-serializable")
	var b strings.Builder
	require.NoError(t, WriteSTD(&b, out.Program, res.Witness))
	require.Equal(t, "T1|begin|1\nT1|r(x)|2\nT2|w(x)|3\nT1|w(x)|4\nT1|end|5\n", reorderLines(b.String(), "T2|begin"))
}

// reorderLines drops the lines that start with skip: where the witness
// puts T2's unary begin is its own choice.
func reorderLines(s, skip string) string {
	var out []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if !strings.HasPrefix(l, skip) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// The blind writes: not conflict-serializable, but every
// interleaving of the pair is view-serializable (T2 then T1), and no
// block of T1 has a read for T2's write to fall after.
func TestViewBlindWrites(t *testing.T) {
	src := "T1|begin\nT1|w(x)\nT2|w(x)\nT1|w(x)\nT1|end\n"
	require.Equal(t, engines.Violation, predictString(t, src, Options{}).Result.Verdict)
	res := predictString(t, src, Options{Criterion: View}).Result
	require.Equal(t, engines.Serializable, res.Verdict, res.Reason)
	require.Contains(t, res.Reason, "no two blocks can interleave unserializably")
}

// The paper's example (3): T2's read can fall between T1's writes as far
// as the locks held at them tell (the block test keeps it), but the
// threads take l1 and l2 in opposite orders, and no run has it (each
// would wait for the other's lock). The grid proves it.
func TestViewPotentialDeadlock(t *testing.T) {
	src := "T2|begin\nT2|acq(l1)\nT2|acq(l2)\nT2|rel(l2)\nT2|r(x)\nT2|rel(l1)\nT2|end\n" +
		"T1|begin\nT1|acq(l2)\nT1|acq(l1)\nT1|rel(l1)\nT1|w(x)\nT1|w(x)\nT1|rel(l2)\nT1|end\n"
	_, want := newViewOracle(t, src).violation()
	require.False(t, want)
	res := predictString(t, src, Options{Criterion: View}).Result
	require.Equal(t, engines.Serializable, res.Verdict, res.Reason)
	require.Contains(t, res.Reason, "the block test kept 1 patterns, and the grid of their two threads has no run for any; "+
		"a potential deadlock, where the test alone is not exact: T2 takes l2 holding l1 at line 3, T1 takes l1 holding l2 at line 10")
}

// A message the grid does not model: T2's write waits for T1's post,
// after T1's transaction, but the grid's run leaves the wait out, and
// verify refuses it. Nothing is proved: unknown, naming the messages.
func TestViewMessagesUndecided(t *testing.T) {
	src := "T1|begin\nT1|r(x)\nT1|w(x)\nT1|end\nT1|post(m)\nT2|wait(m)\nT2|w(x)\n"
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	out, err := Predict(context.Background(), r, Options{Criterion: View})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Contains(t, out.Result.Reason, "1 for messages or tokens (docs/spec.md §3), which the search leaves out")
}

// The budgets end in unknown: the default one, --max-states, and the
// deadline.
func TestViewBudgets(t *testing.T) {
	res := predictString(t, lostUpdate, Options{Criterion: View, Tuning: tuning.Limits{ViewBudget: 3}}).Result
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, engines.StateBudget, res.Limit)
	require.Contains(t, res.Reason, "no answer within predict's default budget of 3 states")
	res = predictString(t, lostUpdate, Options{Criterion: View, Check: engines.Options{MaxStates: 3}}).Result
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Equal(t, "no answer within --max-states 3 states", res.Reason)
	require.Equal(t, engines.Violation, predictString(t, lostUpdate, Options{Criterion: View, Unbounded: true}).Result.Verdict)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := trace.NewReader(strings.NewReader(lostUpdate), "t.std", trace.Options{})
	require.NoError(t, err)
	out, err := Predict(ctx, r, Options{Criterion: View})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Equal(t, engines.Deadline, out.Result.Limit)
	require.Equal(t, ViewEngine, out.Result.Engine)
}

// What the view criterion does not take is a usage error.
func TestViewUsage(t *testing.T) {
	for _, o := range []Options{{Engine: "global"}, {Check: engines.Options{LockEdges: true}}, {Check: engines.Options{IgnoreSync: true}}} {
		o.Criterion = View
		r, err := trace.NewReader(strings.NewReader(lostUpdate), "t.std", trace.Options{})
		require.NoError(t, err)
		_, err = Predict(context.Background(), r, o)
		var ue *UsageError
		require.True(t, errors.As(err, &ue), "%+v: %v", o, err)
	}
}

// T1 joins T3 between its read and its write of x: the run that puts
// T2's write between them must run T3 to its end first, which the
// context does (fjContext); T3's events hold a lock T1 takes too.
func TestViewJoinInsideWindow(t *testing.T) {
	src := "T1|begin\nT1|r(x)\nT3|acq(m)\nT3|w(y)\nT3|rel(m)\nT1|join(T3)\nT1|acq(m)\nT1|w(x)\nT1|rel(m)\nT1|end\nT2|w(x)\n"
	_, want := newViewOracle(t, src).violation()
	require.True(t, want)
	out := predictString(t, src, Options{Criterion: View})
	require.Equal(t, engines.Violation, out.Result.Verdict, out.Result.Reason)
	requireViewWitness(t, src, newViewOracle(t, src), out)
}

// Hand-over-hand locking, which the paper's structured locking rules
// out: T2's read can fall between T1's writes as far as the locks held
// at them tell (T1 holds no lock throughout), but T1 takes m before it
// lets l go, and T2 needs both: no run has it, and the grid proves it.
func TestViewHandOverHand(t *testing.T) {
	src := "T1|begin\nT1|acq(l)\nT1|w(x)\nT1|acq(m)\nT1|rel(l)\nT1|w(x)\nT1|rel(m)\nT1|end\n" +
		"T2|begin\nT2|acq(l)\nT2|acq(m)\nT2|r(x)\nT2|rel(m)\nT2|rel(l)\nT2|end\n"
	_, want := newViewOracle(t, src).violation()
	require.False(t, want)
	res := predictString(t, src, Options{Criterion: View}).Result
	require.Equal(t, engines.Serializable, res.Verdict, res.Reason)
	require.Contains(t, res.Reason, "the block test kept 1 patterns")
}

// The pair criterion takes the pair alone. Here the only run that breaks
// T1#2 and T2#1 puts T2's write between T1#2's read and write, after
// T1's unary write, and that run as a whole is view-equivalent to T2#1,
// T1#1, T1#2 (the read reads T1#1's write in both): predict answers
// violation, says the run as a whole may be view-serializable, and conc
// monitor --criterion view finds it so.
func TestViewPairAlone(t *testing.T) {
	src := "T1|w(x)\nT1|begin\nT1|r(x)\nT1|w(x)\nT1|end\nT2|w(x)\n"
	out := predictString(t, src, Options{Criterion: View})
	require.Equal(t, engines.Violation, out.Result.Verdict)
	require.Contains(t, out.Result.Reason, "so the run as a whole may be view-serializable")
	var b strings.Builder
	require.NoError(t, WriteSTD(&b, out.Program, out.Result.Witness))
	r, err := trace.NewReader(strings.NewReader(b.String()), "w.std", trace.Options{})
	require.NoError(t, err)
	res, err := view.Check(context.Background(), r, view.Options{})
	require.NoError(t, err)
	require.Equal(t, view.Serializable, res.Verdict, b.String())
}

// Read holds of one lock overlap: T2's write, under a read hold, falls
// between T1's read and write, under another read hold of the same lock
// (a lost update that a read lock does not prevent). The grid lets the
// two read holds overlap.
func TestViewReadLocks(t *testing.T) {
	src := "T1|begin\nT1|racq(m)\nT1|r(b)\nT1|w(b)\nT1|rrel(m)\nT1|end\n" +
		"T2|begin\nT2|racq(m)\nT2|w(b)\nT2|rrel(m)\nT2|end\n"
	_, want := newViewOracle(t, src).violation()
	require.True(t, want)
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	out, err := Predict(context.Background(), r, Options{Criterion: View})
	require.NoError(t, err)
	require.Equal(t, engines.Violation, out.Result.Verdict, out.Result.Reason)
}

// A read hold counts as a hold for the window's lock-free positions: T1
// read-holds l0 from before its write to its end, so its window starts
// before its read-acquire, and T0 takes l0 for writing first (the trace
// as observed breaks T0#1 and T1#2).
func TestViewReadHoldWindow(t *testing.T) {
	src := "T0|acq(l0)\nT0|begin\nT0|r(x0)\nT0|rel(l0)\nT1|r(x0)\nT1|racq(l0)\nT0|w(x0)\nT1|w(x0)\nT0|racq(l0)\nT0|end\nT0|w(x0)\n"
	require.Equal(t, engines.Violation, checkView(t, src))
}
