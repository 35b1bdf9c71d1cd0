package all

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/internal/tuning"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/verify"
)

// allString runs All on an STD text.
func allString(t testing.TB, src string, o predict.Options) *Outcome {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	a, err := Find(context.Background(), r, o)
	require.NoError(t, err, "trace:\n%s", src)
	t.Cleanup(func() { a.Close() })
	return a
}

// withLocs gives every line of an STD text a code location that names its
// op and target (so that two accesses of one variable by one op share it),
// as RoadRunner's LOC does for one source line.
func withLocs(src string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(src), "\n") {
		_, ev, _ := strings.Cut(l, "|")
		loc := strings.NewReplacer("(", "_", ")", "").Replace(ev)
		fmt.Fprintf(&b, "%s|%s.java\n", l, loc)
	}
	return b.String()
}

// allTrace is the --all tests' random trace for a seed: by turns the
// predict tests' shapes, the two-thread finders' shapes, and lock-free
// traces without fork of a few items a thread.
func allTrace(r *rand.Rand, seed uint64) string {
	switch seed % 3 {
	case 0:
		return randomTrace(r, randomShape(r))
	case 1:
		return randomPairShape(r).Trace(r)
	}
	sh := randomShape(r)
	sh.Locks, sh.Fork, sh.Items = 0, false, 1+r.IntN(4)
	return randomTrace(r, sh)
}

// TestAllGroupsReplay: on random traces (predict's generators: locks, fork
// and join, nested and unary transactions, and lock-free ones; half of
// them with code locations; 80 quick, 1,500 with CONC_LONG=1), asked as
// predict is (auto, lock edges, --ignore-sync), --all gives predict's
// verdict, and every group's witness replays on the projection program
// (verify.Witness) and, written as STD, is flagged by the trace monitor;
// its schedule (ScheduleOf) rebuilds that STD run from the trace.
// On lock-free traces no group is dropped (the scan's normal run is the
// engine's witness), and some trace has several groups.
func TestAllGroupsReplay(t *testing.T) {
	n := testflag.N(80, 1500)
	groups, several, checked := 0, 0, 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 16))
		src := allTrace(r, seed)
		if seed%2 == 0 {
			src = withLocs(src)
		}
		full := projectionOf(t, src)
		for _, c := range predictConfigs {
			want := predictString(t, src, c.o).Result.Verdict
			a := allString(t, src, c.o)
			require.Zero(t, a.w.misses, "seed %d, %s: a pattern's e1 not tracked", seed, c.name)
			require.Equal(t, want, a.Result.Verdict, "seed %d, %s\n%s", seed, c.name, src)
			if want != engines.Violation {
				require.Empty(t, a.Groups, "seed %d, %s", seed, c.name)
				continue
			}
			require.NotEmpty(t, a.Groups, "seed %d, %s", seed, c.name)
			p := full
			if c.o.Check.IgnoreSync {
				p = model.DropSync(full)
			}
			shown := 0
			for k := range a.Groups {
				out, err := a.Witness(k)
				require.NoError(t, err)
				if out == nil {
					continue
				}
				shown++
				require.NoError(t, verify.Witness(p, out.Result.Witness), "seed %d, %s, group %d\n%s", seed, c.name, k, src)
				requireSTDRoundTrip(t, src, out, c.o.Check.LockEdges && !c.o.Check.IgnoreSync)
				requireScheduleExact(t, src, out, c.o.Check.IgnoreSync)
				checked++
			}
			require.Positive(t, shown, "seed %d, %s: a violation with no group shown", seed, c.name)
			if !a.Sync || c.o.Check.IgnoreSync {
				require.Zero(t, a.Dropped(), "seed %d, %s: the scan's witnesses replay", seed, c.name)
			}
			groups += len(a.Groups)
			if len(a.Groups) > 1 {
				several++
			}
		}
	}
	t.Logf("%d groups, %d witnesses checked, %d answers with several groups", groups, checked, several)
	require.Greater(t, several, n/20)
}

// TestAllHasPredictsGroup: on random lock-free traces (200 quick, 2,000
// with CONC_LONG=1) the groups of --all include the group of predict's
// single answer: the sites of its cycle's first and last events (e1 and
// e2 of the interrupted transaction).
func TestAllHasPredictsGroup(t *testing.T) {
	n := testflag.N(200, 2000)
	violations := 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 17))
		sh := randomShape(r)
		sh.Locks, sh.Fork, sh.Threads, sh.Items = 0, false, 2+r.IntN(5), 1+r.IntN(4)
		src := randomTrace(r, sh)
		out := predictString(t, src, predict.Options{})
		a := allString(t, src, predict.Options{})
		require.Equal(t, out.Result.Verdict, a.Result.Verdict, "seed %d", seed)
		if out.Result.Verdict != engines.Violation {
			continue
		}
		violations++
		w := out.Result.Witness
		sig := siteName(out.Program, w.Run[w.Cycle[0].From].Ev) + " " + siteName(out.Program, w.Run[w.Cycle[len(w.Cycle)-1].To].Ev)
		var sigs []string
		for _, g := range a.Groups {
			sigs = append(sigs, g.Signature)
		}
		require.Contains(t, sigs, sig, "seed %d\n%s", seed, src)
	}
	require.Greater(t, violations, n/5)
}

// siteName is a signature's part for an access without a location.
func siteName(p *model.Program, e model.Event) string {
	return trace.OpName[e.Op] + " " + p.Vars[e.Target]
}

// TestAllFindsEveryPair: three independent atomicity bugs in one trace
// (three variables, each read twice by one thread's transaction and
// written by another) make three groups, where predict reports one.
func TestAllFindsEveryPair(t *testing.T) {
	var b strings.Builder
	for _, v := range []string{"x", "y", "z"} {
		fmt.Fprintf(&b, "T0|begin\nT0|r(%s)|A.java:%s1\nT0|r(%s)|A.java:%s2\nT0|end\nT1|w(%s)|B.java:%s\n", v, v, v, v, v, v)
	}
	a := allString(t, b.String(), predict.Options{})
	require.Equal(t, engines.Violation, a.Result.Verdict)
	var sigs []string
	for k, g := range a.Groups {
		out, err := a.Witness(k)
		require.NoError(t, err)
		require.NotNil(t, out)
		sigs = append(sigs, g.Signature)
	}
	require.Equal(t, []string{"r@A.java:x1 r@A.java:x2", "r@A.java:y1 r@A.java:y2", "r@A.java:z1 r@A.java:z2"}, sigs)
}

// TestAllDeepens: --all's scan deepens as predict's does
// (internal/chain/deepen.go, forced on whatever the thread count): on random
// lock-free traces of 4 to 10 threads (80 quick, 600 with CONC_LONG=1) it
// gives the exhaustive verdict, tracks every pattern's e1, and every group's
// witness replays; some traces need a pass beyond the first.
func TestAllDeepens(t *testing.T) {
	n := testflag.N(80, 600)
	deeper := 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 19))
		src := randomTrace(r, traceShape{Threads: 4 + r.IntN(7), Vars: 2 + r.IntN(4), Items: 1 + r.IntN(3)})
		full := projectionOf(t, src)
		want := predictString(t, src, predict.Options{}).Result.Verdict
		a := allString(t, src, predict.Options{Tuning: tuning.Limits{Deepen: true}})
		require.Equal(t, want, a.Result.Verdict, "seed %d\n%s", seed, src)
		require.Zero(t, a.w.misses, "seed %d", seed)
		if a.w.c.Depth != a.w.c.FirstDepth(true) {
			deeper++
		}
		for k := range a.Groups {
			out, err := a.Witness(k)
			require.NoError(t, err)
			require.NotNil(t, out, "seed %d, group %d dropped\n%s", seed, k, src)
			require.NoError(t, verify.Witness(full, out.Result.Witness), "seed %d, group %d\n%s", seed, k, src)
			requireScheduleExact(t, src, out, false)
		}
	}
	t.Logf("%d of %d traces deepened past the first pass", deeper, n)
	require.Positive(t, deeper)
}

// TestAllTurnsUnknownIntoViolation: on predict/testdata/pair-unknown-c.std
// (whose locking is not nested, so step 5c does not apply, and the unknown
// says so) predict answers unknown under a tiny budget (3 states, or
// tables of 1 byte): the engine gives up, and the lock-aware two-thread pattern its
// first pass (internal/pair's index pass, which can hit already) finds has
// no witness that replays; a first pass that hit keeps no index, so the
// meeting pass does not run. --all runs both passes to their ends: the
// meeting pass finds a pattern of another group, whose witness replays,
// so --all answers violation, that group shown and the first pass's
// dropped. The witness replays on the projection program, the monitor
// flags it written as STD, and its schedule rebuilds it.
func TestAllTurnsUnknownIntoViolation(t *testing.T) {
	b, err := os.ReadFile("../testdata/pair-unknown-c.std")
	require.NoError(t, err)
	src := string(b)
	for _, o := range []predict.Options{{Check: engines.Options{MaxStates: 3}}, {Tuning: tuning.Limits{MaxTable: 1}}} {
		out := predictString(t, src, o)
		require.Equal(t, engines.Unknown, out.Result.Verdict, "%+v", o)
		require.Contains(t, out.Result.Reason, "the locking is not nested (thread T3 releases a at line 45 while holding b")
		a := allString(t, src, o)
		require.Equal(t, engines.Violation, a.Result.Verdict, "%+v", o)
		require.Len(t, a.Groups, 2)
		w, err := a.Witness(0)
		require.NoError(t, err)
		require.NotNil(t, w)
		dropped, err := a.Witness(1)
		require.NoError(t, err)
		require.Nil(t, dropped)
		require.Equal(t, 1, a.Dropped())
		require.Equal(t, "two threads through their locks", a.Groups[0].Source)
		// The dropped group's pattern is the one predict's first pass
		// answers with (e2 at line 38); the shown one's, e2 at line 14,
		// only the meeting pass finds, which predict then does not run.
		require.Equal(t, []int64{14, 38}, []int64{a.w.groups[0].pats[srcLock].lock.LineE2, a.w.groups[1].pats[srcLock].lock.LineE2})
		require.True(t, strings.HasPrefix(a.Result.Reason, "two threads through their locks"), a.Result.Reason)
		require.NoError(t, verify.Witness(projectionOf(t, src), w.Result.Witness))
		requireSTDRoundTrip(t, src, w, false)
		requireScheduleExact(t, src, w, false)
	}
}

// TestAllBudgetNote: a lock-free scan that the default chain budget cuts
// after it found groups answers violation, and its note says where the
// search stopped, not "no violation within …" (the unknown answer's
// reason, which contradicts the verdict): a ring of 4 threads, whose
// chain needs them all, and 19 writers that chain every way.
func TestAllBudgetNote(t *testing.T) {
	a := allString(t, ringTrace(4)+stuckTrace(20), predict.Options{Tuning: tuning.Limits{ChainBudget: 20_000}})
	require.Equal(t, engines.Violation, a.Result.Verdict, a.Result.Reason)
	require.NotEmpty(t, a.Groups)
	require.Equal(t, "the chain search stopped at predict's default budget of 20000 chain states (docs/predict.md): "+
		"--max-states or --timeout to search further", a.Incomplete)
}
