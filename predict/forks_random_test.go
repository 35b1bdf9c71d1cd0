package predict

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/monitor/pass"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/verify"
)

// oracleViolates is the exhaustive reference for predict's question
// (docs/spec.md §1, §3): does some run of src's projection program have
// a cycle in its conflict graph? It is the two-thread oracle
// (pairbrute_test.go: its own projections, runs and conflict graph) asked
// of every thread at once.
func oracleViolates(t testing.TB, src string, lockEdges bool) bool {
	o := newPairOracle(t, src, lockEdges, true)
	all := ^uint64(0) >> (64 - len(o.nodeOf))
	if len(o.nodeOf) == 0 {
		return false
	}
	return o.searchAny(all)
}

// searchAny is search until some maximal run has a cycle among mask's
// nodes. Skipping a state seen before (visit) is sound here too: its
// continuations were searched, and none had a cycle.
func (o *pairOracle) searchAny(mask uint64) bool {
	if !o.visit() {
		return false
	}
	moved := false
	for th := range o.evs {
		if !o.enabled(th) {
			continue
		}
		moved = true
		undo := o.step(th)
		found := o.searchAny(mask)
		o.unstep(th, undo)
		if found {
			return true
		}
	}
	return !moved && o.cycleAmong(mask)
}

// forkEngines are the engines predict is asked with, each with and
// without lock edges.
var forkEngines = []string{"auto", "global", "brute"}

// readError is the error of reading src strictly, "" when it reads.
func readError(src string, lenient bool) (string, []trace.Event, *trace.Reader) {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Lenient: lenient})
	if err != nil {
		return err.Error(), nil, nil
	}
	var evs []trace.Event
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return "", evs, r
		}
		if err != nil {
			return err.Error(), nil, nil
		}
		evs = append(evs, e)
	}
}

// repaired is src as --lenient reads it, written back as STD: without
// the lines it skips, the inner begin/end of nested transactions and
// re-entrant acq/rel, which reads back as the same events.
func repaired(t testing.TB, src string) string {
	msg, evs, r := readError(src, true)
	require.Empty(t, msg)
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(r.Threads().Name(e.Thread) + "|" + trace.OpName[e.Op])
		switch e.Op {
		case model.OpRead, model.OpWrite:
			b.WriteString("(" + r.Vars().Name(e.Target) + ")")
		case model.OpAcquire, model.OpRelease:
			b.WriteString("(" + r.Locks().Name(e.Target) + ")")
		case model.OpFork, model.OpJoin:
			b.WriteString("(" + r.Threads().Name(e.Target) + ")")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestForkShapesAgreeWithOracle is the differential check of fork and
// join shapes: on random traces of forkTrace (repeated and cross-thread
// forks, joins of threads with no events, forks and joins inside
// transactions, traces cut anywhere; 150 quick, 2,000 with CONC_LONG=1),
// a trace §3 refuses is refused by the monitor and by predict with every
// engine, with the same line and reason, and is then checked as --lenient
// reads it; predict with each engine, with and without lock edges, gives
// the exhaustive reference's verdict (and predict --all too); a violation
// the monitor sees in the observed order is one the reference sees; and
// every witness replays on the projection program and, written as STD, is
// a violation for the monitor (with lock edges when predict had them).
func TestForkShapesAgreeWithOracle(t *testing.T) {
	n := testflag.N(150, 2000)
	var refused, tally [2]int
	for seed := uint64(0); seed < uint64(n); seed++ {
		src := forkTrace(rand.New(rand.NewPCG(seed, 25)))
		if msg, _, _ := readError(src, false); msg != "" {
			refused[1]++
			requireRefused(t, src, msg)
			src = repaired(t, src)
		}
		for _, lockEdges := range []bool{false, true} {
			v := checkForkTrace(t, seed, src, lockEdges)
			tally[b2i(v)]++
		}
	}
	t.Logf("%d of %d traces refused; verdicts [serializable violation]: %v", refused[1], n, tally)
	require.Greater(t, refused[1], n/20)
	require.Greater(t, tally[0], n/5)
	require.Greater(t, tally[1], n/5)
}

// requireRefused: the monitor and predict, with every engine, with and
// without lock edges, fail on src with the reader's error msg.
func requireRefused(t *testing.T, src, msg string) {
	t.Helper()
	for _, lockEdges := range []bool{false, true} {
		r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
		require.NoError(t, err)
		_, err = pass.Check(context.Background(), r, pass.Options{TraceOptions: monitor.TraceOptions{LockEdges: lockEdges}})
		require.EqualError(t, err, msg, src)
		for _, e := range forkEngines {
			r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
			require.NoError(t, err)
			_, err = Predict(context.Background(), r, Options{Engine: e, Check: engines.Options{LockEdges: lockEdges}})
			require.EqualError(t, err, msg, "%s\n%s", e, src)
		}
	}
}

// checkForkTrace checks one accepted trace under one semantics and
// returns the reference's verdict.
func checkForkTrace(t *testing.T, seed uint64, src string, lockEdges bool) bool {
	t.Helper()
	want := oracleViolates(t, src, lockEdges)
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	mon, err := pass.Check(context.Background(), r, pass.Options{TraceOptions: monitor.TraceOptions{LockEdges: lockEdges}})
	require.NoError(t, err)
	require.False(t, mon.Violation && !want, "seed %d, lock edges %v: the observed order violates\n%s", seed, lockEdges, src)
	full := projectionOf(t, src)
	for _, e := range forkEngines {
		o := Options{Engine: e, Check: engines.Options{LockEdges: lockEdges}}
		out := predictString(t, src, o)
		require.Equal(t, want, out.Result.Verdict == engines.Violation,
			"seed %d, %s, lock edges %v: %s %s\n%s", seed, e, lockEdges, out.Result.Verdict, out.Result.Reason, src)
		if want {
			require.NoError(t, verify.Witness(full, out.Result.Witness), "seed %d, %s, lock edges %v\n%s", seed, e, lockEdges, src)
			requireSTDRoundTrip(t, src, out, lockEdges)
		}
	}
	a := allString(t, src, Options{Check: engines.Options{LockEdges: lockEdges}})
	require.Equal(t, want, a.Result.Verdict == engines.Violation, "seed %d, --all, lock edges %v\n%s", seed, lockEdges, src)
	for k := range a.Groups {
		g, err := a.Witness(k)
		require.NoError(t, err)
		if g != nil {
			requireSTDRoundTrip(t, src, g, lockEdges)
			requireScheduleExact(t, src, g, false)
		}
	}
	return want
}
