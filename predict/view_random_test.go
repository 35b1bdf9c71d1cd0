package predict

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/view"
	"github.com/conc-dev/conc/predict/internal/proj/projtest"
	"github.com/conc-dev/conc/predict/internal/tuning"
	"github.com/conc-dev/conc/testkit/ordertrace"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/verify"
)

// viewTraces are the random traces of the view criterion's checks, by
// kind: every kind with blind writes half the time (a write is as likely
// as a read, and transactions are short).
var viewTraces = []struct {
	name string
	gen  func(r *rand.Rand) string
}{
	{"lock-free", func(r *rand.Rand) string {
		return pairGen{r: r, vars: 1 + r.IntN(3)}.trace(2+r.IntN(2), pairTraceMaxEvents)
	}},
	{"closed nested", func(r *rand.Rand) string { return closedNestedTrace(r, 2+r.IntN(2), 5) }},
	{"pair shapes", randomPairTraces},
	{"nested, forks", func(r *rand.Rand) string { return nestedTrace(r, 2+r.IntN(2), pairTraceMaxEvents) }},
	{"read locks", readLockTrace},
}

// readLockTrace is a random trace with read and write holds of one or two
// locks (testkit/ordertrace's, its messages and tokens left out: the
// grid does not model them).
func readLockTrace(r *rand.Rand) string {
	evs := ordertrace.Events(r.Uint64(), 12+r.IntN(8), 2+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1)
	var b []byte
	for _, e := range evs {
		switch e.Op {
		case model.OpPost, model.OpWait, model.OpGive, model.OpTake:
			continue
		}
		b = trace.AppendSTD(b, e, trace.GenName)
	}
	return string(b)
}

// TestViewAgreesWithOracle is --criterion view's correctness claim: on
// random traces of each kind (lock-free; nested locks, every section
// closed; locks nested or not with forks, joins, unary and nested
// transactions and prefixes; nested locks up to four deep with forks and
// joins through third threads; reader-writer locks), the verdict is the
// reference's: a
// violation is one, with a witness that replays, keeps each thread's
// projection in order, respects locks, forks and joins, breaks a pair in
// it, and is flagged by conc monitor; serializable is the reference's;
// unknown only where forks or joins make the search inexact, never on a
// trace without them.
func TestViewAgreesWithOracle(t *testing.T) {
	n := testflag.N(150, 4000)
	for _, kind := range viewTraces {
		var tally [3]int
		for seed := uint64(0); seed < uint64(n); seed++ {
			src := kind.gen(rand.New(rand.NewPCG(seed, 29)))
			if src == "" {
				continue
			}
			tally[checkView(t, src)]++
		}
		t.Logf("%s: serializable %d, violation %d, unknown %d; witnesses [clean][flagged by view.Check] %v", kind.name, tally[0], tally[1], tally[2], viewFlags)
		viewFlags = [2][2]int{}
		require.Greater(t, tally[engines.Serializable], n/10, kind.name)
		require.Greater(t, tally[engines.Violation], n/10, kind.name)
		require.Less(t, tally[engines.Unknown], n/20, kind.name)
	}
}

// checkView checks one trace and returns the verdict.
func checkView(t *testing.T, src string) engines.Verdict {
	t.Helper()
	o := newViewOracle(t, src)
	_, want := o.violation()
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	got, err := Predict(context.Background(), r, Options{Criterion: View})
	require.NoError(t, err)
	switch got.Result.Verdict {
	case engines.Violation:
		require.True(t, want, "predict found a violation the reference does not have: %s\n%s", got.Result.Reason, src)
		requireViewWitness(t, src, o, got)
	case engines.Serializable:
		require.False(t, want, "predict proved a trace the reference breaks: %s\n%s", got.Result.Reason, src)
	default:
		require.True(t, strings.Contains(src, "fork(") || strings.Contains(src, "join("), "unknown on a trace without forks and joins: %s\n%s", got.Result.Reason, src)
	}
	return got.Result.Verdict
}

// requireViewWitness checks a violation's witness: it replays on the
// projection program (verify), and as STD it is a reordering of the trace
// (requireReordering) that conc monitor flags and in which some pair of
// transactions, each whole, is not serializable.
func requireViewWitness(t *testing.T, src string, o *viewOracle, out *Outcome) {
	t.Helper()
	if !strings.Contains(src, "racq(") { // the test's projection builder has no read locks: requireReordering replays them
		require.NoError(t, verify.Witness(projectionOf(t, src), out.Result.Witness), "%s", src)
	}
	var b strings.Builder
	require.NoError(t, WriteSTD(&b, out.Program, out.Result.Witness))
	std := b.String()
	projtest.RequireSTDRun(t, src, std, false)
	lines := requireReordering(t, src, o, std)
	pair, clean, ok := o.breaksIn(lines)
	require.True(t, ok, "no pair is broken in the witness\n%s\nwitness:\n%s", src, std)
	r, err := trace.NewReader(strings.NewReader(std), "w.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	res, err := view.Check(context.Background(), r, view.Options{})
	require.NoError(t, err)
	viewFlags[b2i(clean)][b2i(res.Verdict == view.Violation)]++
	if clean {
		require.Equal(t, view.Violation, res.Verdict, "pair %v, no other write of its variables, yet conc monitor --criterion view says %s\n%s\nwitness:\n%s",
			pair, res.Verdict, src, std)
	}
}

// viewFlags counts the witnesses by [clean][flagged by view.Check].
var viewFlags [2][2]int

// requireReordering checks that std (THREAD|OP|LINE, LINE the original
// line) runs each thread's projection in order, a prefix of it, with
// locks held by one thread at a time, forked threads after their fork and
// joins after the joined thread's last event; it returns the lines.
func requireReordering(t *testing.T, src string, o *viewOracle, std string) []int64 {
	t.Helper()
	byLine := map[int64][2]int{} // line: thread, index
	for th, evs := range o.threads {
		for i, e := range evs {
			byLine[e.line] = [2]int{th, i}
		}
	}
	pos := make([]int, len(o.threads))
	var lines []int64
	for _, l := range strings.Split(strings.TrimSpace(std), "\n") {
		f := strings.Split(l, "|")
		n, err := strconv.ParseInt(f[2], 10, 64)
		require.NoError(t, err)
		at, ok := byLine[n]
		require.True(t, ok, "witness line %q is no event of the trace", l)
		th, i := at[0], at[1]
		require.Equal(t, pos[th], i, "thread %d out of order at %q\n%s\n%s", th, l, src, std)
		require.True(t, o.enabled(pos, th), "%q cannot run there (a lock, fork or join)\n%s\n%s", l, src, std)
		pos[th]++
		lines = append(lines, n)
	}
	return lines
}

// breaksIn is a pair of transactions, whole in the run of these trace
// lines, that it breaks (ok false: none), a clean one when there is one:
// no other event of the run writes a variable the pair accesses.
func (o *viewOracle) breaksIn(lines []int64) (pair [2]int, clean, ok bool) {
	at := map[int64]int{}
	for k, l := range lines {
		at[l] = k
	}
	for a := range o.txns {
		for b := a + 1; b < len(o.txns); b++ {
			if o.txns[a].thread != o.txns[b].thread && o.whole(a, at) && o.whole(b, at) && !serialSigma(o.sigma(a, b, lines)) {
				pair, ok = [2]int{a, b}, true
				if o.clean(a, b, lines) {
					return pair, true, true
				}
			}
		}
	}
	return pair, false, ok
}

// clean reports that no event of the run outside transactions a and b
// writes a variable they access.
func (o *viewOracle) clean(a, b int, lines []int64) bool {
	vars := map[int32]bool{}
	ev := map[int64]vEvent{}
	for _, evs := range o.threads {
		for _, e := range evs {
			ev[e.line] = e
			if (e.txn == a || e.txn == b) && e.op.IsAccess() {
				vars[e.target] = true
			}
		}
	}
	for _, l := range lines {
		if e := ev[l]; e.op == model.OpWrite && e.txn != a && e.txn != b && vars[e.target] {
			return false
		}
	}
	return true
}

// whole reports that every event of transaction x is in the run.
func (o *viewOracle) whole(x int, at map[int64]int) bool {
	tx := o.txns[x]
	for _, e := range o.threads[tx.thread][tx.first : tx.last+1] {
		if _, ok := at[e.line]; !ok {
			return false
		}
	}
	return true
}

// sigma is the accesses of transactions a and b in the run's order.
func (o *viewOracle) sigma(a, b int, lines []int64) []byte {
	ev := map[int64]vEvent{}
	for _, evs := range o.threads {
		for _, e := range evs {
			ev[e.line] = e
		}
	}
	var s []byte
	for _, l := range lines {
		e := ev[l]
		if !e.op.IsAccess() || e.txn != a && e.txn != b {
			continue
		}
		side, w := byte(0), byte(0)
		if e.txn == b {
			side = 1
		}
		if e.op == model.OpWrite {
			w = 1
		}
		s = append(s, side<<7|w<<6|byte(e.target))
	}
	return s
}

// TestViewStraightRuns: with every grid over its bound (a grid of one
// cell), the patterns are tried by the two straight runs alone
// (internal/blocks/straight.go): every violation is the reference's and
// its witness is checked as above; no serializable answer comes but from
// the block test; the straight runs find most of the violations.
func TestViewStraightRuns(t *testing.T) {
	n := testflag.N(60, 800)
	found, missed := 0, 0
	for seed := uint64(0); seed < uint64(n*len(viewTraces)); seed++ {
		src := viewTraces[seed%uint64(len(viewTraces))].gen(rand.New(rand.NewPCG(seed, 31)))
		if src == "" {
			continue
		}
		o := newViewOracle(t, src)
		_, want := o.violation()
		r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Orderings: true})
		require.NoError(t, err)
		out, err := Predict(context.Background(), r, Options{Criterion: View, Tuning: tuning.Limits{ViewGrid: 1}})
		require.NoError(t, err)
		switch out.Result.Verdict {
		case engines.Violation:
			require.True(t, want, "%s\n%s", out.Result.Reason, src)
			requireViewWitness(t, src, o, out)
			found++
		case engines.Serializable:
			require.False(t, want, src)
			require.Contains(t, out.Result.Reason, "no two blocks can interleave unserializably")
		default:
			missed += b2i(want)
		}
	}
	t.Logf("violations found by the straight runs %d, left unknown %d", found, missed)
	require.Greater(t, found, 2*missed)
}
