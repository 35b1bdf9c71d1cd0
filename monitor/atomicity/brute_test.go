package atomicity

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/testkit/ordertrace"
	"github.com/conc-dev/conc/trace"
)

// edge is the order's direct relation, literally (the package doc): a
// before b in the trace, and of one thread (program order), or of two
// threads and conflicting accesses to one variable, or with lock edges a
// release and a later acquire of one lock, a fork and an event of the
// forked thread, an event of a thread and its join.
func edge(a, b trace.Event, lockEdges bool) bool {
	if a.Thread == b.Thread {
		return true
	}
	if a.Op.IsAccess() && b.Op.IsAccess() {
		return a.Target == b.Target && (a.Op == model.OpWrite || b.Op == model.OpWrite)
	}
	if !lockEdges {
		return false
	}
	return a.Op == model.OpRelease && (b.Op == model.OpAcquire || b.Op == model.OpReadAcquire) && a.Target == b.Target ||
		a.Op == model.OpReadRelease && b.Op == model.OpAcquire && a.Target == b.Target ||
		a.Op == model.OpPost && b.Op == model.OpWait && a.Target == b.Target ||
		a.Op == model.OpGive && b.Op == model.OpTake && a.Target == b.Target || // matched, after ordertrace.FIFOTargets
		a.Op == model.OpFork && a.Target == b.Thread ||
		b.Op == model.OpJoin && b.Target == a.Thread
}

// bruteTxn is a transaction (not unary) found by bruteBroken.
type bruteTxn struct {
	thread     int32
	begin, end int // indices into the events; end -1 while open
}

// bruteBroken is the definition, literally: the transitive closure of the
// order over all events, and a transaction is broken iff some event x of
// another thread has begin →* x →* e for an event e of the transaction.
// It returns the broken transactions by begin line, and all transactions.
func bruteBroken(evs []trace.Event, lockEdges bool) (map[int64]bool, []bruteTxn) {
	n := len(evs)
	r := make([][]bool, n)
	for i := range r {
		r[i] = make([]bool, n)
		r[i][i] = true
	}
	for j := range n {
		for i := range j {
			if edge(evs[i], evs[j], lockEdges) {
				for h := range j { // everything that reaches i reaches j
					if r[h][i] {
						r[h][j] = true
					}
				}
			}
		}
	}
	txns := bruteTxns(evs)
	broken := map[int64]bool{}
	for _, x := range txns {
		end := x.end
		if end < 0 {
			end = n - 1
		}
		for e := x.begin; e <= end; e++ {
			if evs[e].Thread != x.thread {
				continue
			}
			for y := range n {
				if evs[y].Thread != x.thread && r[x.begin][y] && r[y][e] {
					broken[evs[x.begin].Line] = true
				}
			}
		}
	}
	return broken, txns
}

// bruteTxns lists the outermost begin/end pairs.
func bruteTxns(evs []trace.Event) []bruteTxn {
	var txns []bruteTxn
	depth := map[int32]int{}
	cur := map[int32]int{}
	for i, e := range evs {
		switch e.Op {
		case model.OpBegin:
			if depth[e.Thread]++; depth[e.Thread] == 1 {
				cur[e.Thread] = len(txns)
				txns = append(txns, bruteTxn{e.Thread, i, -1})
			}
		case model.OpEnd:
			if depth[e.Thread] > 0 {
				if depth[e.Thread]--; depth[e.Thread] == 0 {
					txns[cur[e.Thread]].end = i
				}
			}
		}
	}
	return txns
}

func track(evs []trace.Event, lockEdges bool) Result {
	return trackKnown(evs, lockEdges, 0)
}

func trackKnown(evs []trace.Event, lockEdges bool, maxKnown int) Result {
	return trackWith(evs, Options{LockEdges: lockEdges, MaxKnown: maxKnown})
}

func trackWith(evs []trace.Event, o Options) Result {
	k := New(o)
	k.StepAll(evs)
	return k.Finish()
}

// randomTrace draws a small trace: 2-5 threads, nested and unary
// transactions, locks, fork and join, cut anywhere (open transactions and
// held locks at the end).
func randomTrace(rng *rand.Rand, seed uint64) []trace.Event {
	o := trace.GenOptions{
		Seed: seed, Events: int64(4 + rng.IntN(36)), Threads: 2 + rng.IntN(4), Vars: 1 + rng.IntN(4),
		Locks: rng.IntN(3), TxnLen: 1 + rng.IntN(4), Unprotected: rng.Float64() * 0.7,
		Unary: rng.Float64() * 0.5, Nested: rng.Float64() * 0.4, Writes: 0.2 + rng.Float64()*0.6,
		Fork: rng.IntN(2) == 0,
	}
	g := trace.NewGen(o)
	var evs []trace.Event
	buf := make([]trace.Event, 64)
	for {
		n, _ := g.Read(buf)
		if n == 0 {
			break
		}
		evs = append(evs, buf[:n]...)
	}
	if rng.IntN(3) == 0 && len(evs) > 1 {
		evs = evs[:1+rng.IntN(len(evs)-1)]
	}
	return evs
}

// TestTrackerAgainstBrute: on thousands of random small traces (20,000
// with CONC_LONG=1), with and without lock edges, the broken transactions
// are exactly the definition's, and every explanation is a real path of
// the order, event by event.
func TestTrackerAgainstBrute(t *testing.T) {
	n := testflag.N(2000, 20000)
	rng := rand.New(rand.NewPCG(11, 24))
	broken := 0
	for i := range n {
		seed := rng.Uint64()
		evs := randomTrace(rng, seed)
		for _, le := range []bool{false, true} {
			broken += checkAgainstBrute(t, evs, le, fmt.Sprintf("trace %d (seed %d, lock edges %v)", i, seed, le))
		}
	}
	require.Greater(t, broken, n/4, "the traces break too few transactions to test anything")
}

// checkAgainstBrute compares the tracker on evs with the definition
// (token events matched first in, first out: ordertrace.FIFOTargets) and
// checks every explanation; it returns how many transactions are broken.
func checkAgainstBrute(t *testing.T, evs []trace.Event, le bool, name string) int {
	t.Helper()
	want, _ := bruteBroken(ordertrace.FIFOTargets(evs), le)
	got := track(evs, le)
	ctx := name + ":\n" + fmtTrace(evs)
	require.Equal(t, int64(len(want)), got.Count, ctx)
	for _, b := range got.Broken {
		require.True(t, want[b.Begin], "transaction at line %d is not broken: %s", b.Begin, ctx)
		checkPath(t, evs, b, le, ctx)
	}
	return len(want)
}

// checkPath checks b's explanation against the trace, event by event.
func checkPath(t *testing.T, evs []trace.Event, b Broken, lockEdges bool, ctx string) {
	t.Helper()
	byLine := map[int64]trace.Event{}
	for _, e := range evs {
		byLine[e.Line] = e
	}
	require.NotEmpty(t, b.Path, ctx)
	end := b.End
	if end < 0 {
		end = evs[len(evs)-1].Line
	}
	in := func(e trace.Event) bool { return e.Thread == b.Thread && e.Line > b.Begin && e.Line <= end }
	require.True(t, b.Cut || in(b.Leave()), "the path leaves at line %d, not in the transaction: %s", b.Leave().Line, ctx)
	require.True(t, in(b.Return()), "the path returns at line %d, not in the transaction: %s", b.Return().Line, ctx)
	seen := map[int32]bool{}
	for i, h := range b.Path {
		require.Equal(t, byLine[h.From.Line], h.From, ctx)
		require.Equal(t, byLine[h.To.Line], h.To, ctx)
		require.Less(t, h.From.Line, h.To.Line, ctx)
		require.NotEqual(t, h.From.Thread, h.To.Thread, ctx)
		require.True(t, edge(h.From, h.To, lockEdges), "hop %d is no edge: %s", i, ctx)
		if i > 0 && (b.Elided == 0 || i != b.ElidedAt) {
			prev := b.Path[i-1].To
			require.Equal(t, prev.Thread, h.From.Thread, ctx)
			require.LessOrEqual(t, prev.Line, h.From.Line, ctx)
			require.NotEqual(t, b.Thread, h.From.Thread, "the path passes through its own thread: %s", ctx)
			require.False(t, seen[h.From.Thread], "a thread visited twice: %s", ctx)
			seen[h.From.Thread] = true
		}
	}
}

func fmtTrace(evs []trace.Event) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "  %d: T%d %s %d\n", e.Line, e.Thread, trace.OpName[e.Op], e.Target)
	}
	return b.String()
}

// TestTrackerMaxKnownStaysExact: with room for only a few ways to
// remember, the broken transactions are still exactly the definition's
// (slots of overflowed transactions are cleared everywhere); paths may be
// cut at their start, and say so, but every hop they list is real.
func TestTrackerMaxKnownStaysExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	cut := 0
	for i := range testflag.N(1000, 10000) {
		evs := randomTrace(rng, rng.Uint64())
		for _, le := range []bool{false, true} {
			want, _ := bruteBroken(evs, le)
			got := trackKnown(evs, le, 1+i%3)
			ctx := fmt.Sprintf("trace %d, lock edges %v:\n%s", i, le, fmtTrace(evs))
			require.Equal(t, int64(len(want)), got.Count, ctx)
			for _, b := range got.Broken {
				require.True(t, want[b.Begin], ctx)
				checkPath(t, evs, b, le, ctx)
				if b.Cut {
					cut++
				}
			}
		}
	}
	require.Positive(t, cut, "no path was cut: the bound was never reached")
}

// TestTrackerMaxPathElides: with paths of at most two hops listed, longer
// ones keep their two ends and count the hops left out between them; the
// answer is the definition's.
func TestTrackerMaxPathElides(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2))
	elided := 0
	for i := range testflag.N(1000, 10000) {
		evs := randomTrace(rng, rng.Uint64())
		for _, le := range []bool{false, true} {
			want, _ := bruteBroken(evs, le)
			got := trackWith(evs, Options{LockEdges: le, MaxPath: 2})
			ctx := fmt.Sprintf("trace %d, lock edges %v:\n%s", i, le, fmtTrace(evs))
			require.Equal(t, int64(len(want)), got.Count, ctx)
			for _, b := range got.Broken {
				require.True(t, want[b.Begin], ctx)
				checkPath(t, evs, b, le, ctx)
				require.LessOrEqual(t, len(b.Path), 2, ctx)
				if b.Elided > 0 {
					elided++
					require.Equal(t, 1, b.ElidedAt, ctx)
				}
			}
		}
	}
	require.Positive(t, elided, "no path was long enough to elide")
}

// TestTrackerOrderingsAgainstBrute: on random traces with read locks and
// messages (docs/spec.md §3), the broken transactions are the
// definition's, whose order with lock edges then has release ->
// read-acquire, read-release -> acquire and post -> wait, and every
// explanation is a path of it.
func TestTrackerOrderingsAgainstBrute(t *testing.T) {
	n := testflag.N(1000, 10000)
	rng := rand.New(rand.NewPCG(5, 9))
	broken := 0
	for i := range n {
		seed := rng.Uint64()
		evs := ordertrace.Events(seed, 10+rng.IntN(40), 2+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(2), 1+rng.IntN(3))
		for _, le := range []bool{false, true} {
			broken += checkAgainstBrute(t, evs, le, fmt.Sprintf("trace %d (seed %d, lock edges %v)", i, seed, le))
		}
	}
	require.Greater(t, broken, n/4, "the traces break too few transactions to test anything")
}
