package monitor

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/internal/montest"
	"github.com/conc-dev/conc/testkit/ordertrace"
	"github.com/conc-dev/conc/trace"
)

// naiveTxn is a transaction of the naive computation.
type naiveTxn struct {
	thread     int32
	begin, end int64
}

// naiveResult is the exact answer computed the slow way: the full conflict
// graph of every prefix (docs/spec.md §1, the AeroDrome paper's conflict relation),
// checked for a cycle after each event; the cyclic transactions are those
// in a non-trivial strongly connected component of the whole graph.
type naiveResult struct {
	first  int64
	cyclic map[int64]naiveTxn // by begin line
	txnOf  map[int64]int      // event line -> transaction
	txns   []naiveTxn
	events map[int64]trace.Event
}

// cyclicBlocks counts the cyclic transactions that are atomic blocks
// (a unary one's begin is its end).
func (r naiveResult) cyclicBlocks() int {
	n := 0
	for _, tx := range r.cyclic {
		if tx.begin != tx.end {
			n++
		}
	}
	return n
}

func naiveCheck(evs []trace.Event, lockEdges bool) naiveResult {
	evs = ordertrace.FIFOTargets(evs)
	res := naiveResult{cyclic: map[int64]naiveTxn{}, txnOf: map[int64]int{}, events: map[int64]trace.Event{}}
	var in []trace.Event // events that belong to a transaction
	var txnIdx []int
	depth := map[int32]int{}
	cur := map[int32]int{}
	for _, e := range evs {
		switch {
		case e.Op == model.OpBegin:
			depth[e.Thread]++
			if depth[e.Thread] == 1 {
				cur[e.Thread] = len(res.txns)
				res.txns = append(res.txns, naiveTxn{e.Thread, e.Line, -1})
			}
		case e.Op == model.OpEnd:
			if depth[e.Thread] == 0 {
				continue
			}
		case depth[e.Thread] > 0:
		case e.Op.IsAccess() || lockEdges:
			cur[e.Thread] = len(res.txns)
			res.txns = append(res.txns, naiveTxn{e.Thread, e.Line, e.Line})
		default:
			continue // a sync event outside transactions without lock edges
		}
		in = append(in, e)
		txnIdx = append(txnIdx, cur[e.Thread])
		res.txnOf[e.Line] = cur[e.Thread]
		res.events[e.Line] = e
		if e.Op == model.OpEnd {
			depth[e.Thread]--
			if depth[e.Thread] == 0 {
				res.txns[cur[e.Thread]].end = e.Line
			}
		}
	}
	n := len(res.txns)
	adj := make([][]bool, n)
	for i := range adj {
		adj[i] = make([]bool, n)
	}
	for j := range in {
		for i := 0; i < j; i++ {
			if a, b := txnIdx[i], txnIdx[j]; a != b && traceNaiveConflict(in[i], in[j], lockEdges) {
				adj[a][b] = true
			}
		}
		if res.first == 0 && montest.HasCycle(adj) {
			res.first = in[j].Line
		}
	}
	for _, i := range traceNaiveCyclicSet(adj) {
		res.cyclic[res.txns[i].begin] = res.txns[i]
	}
	return res
}

// traceNaiveConflict is the conflict relation of docs/spec.md §1, symmetric: same
// thread; same variable, one a write; with lock edges release/acquire of
// one lock and a fork or join of a thread with the thread's events.
func traceNaiveConflict(a, b trace.Event, lockEdges bool) bool {
	if a.Thread == b.Thread {
		return true
	}
	if a.Op.IsAccess() && b.Op.IsAccess() {
		return a.Target == b.Target && (a.Op == model.OpWrite || b.Op == model.OpWrite)
	}
	if !lockEdges {
		return false
	}
	forkJoin := func(x, y trace.Event) bool {
		return (x.Op == model.OpFork || x.Op == model.OpJoin) && x.Target == y.Thread
	}
	return forkJoin(a, b) || forkJoin(b, a) || orderedBefore(a, b) || orderedBefore(b, a)
}

// orderedBefore: a's lock or message orders b after it (docs/spec.md §3):
// a release before an acquire or read-acquire of its lock, a read release
// before an acquire, a post before a wait for its message.
func orderedBefore(a, b trace.Event) bool {
	if a.Target != b.Target {
		return false
	}
	switch a.Op {
	case model.OpRelease:
		return b.Op == model.OpAcquire || b.Op == model.OpReadAcquire
	case model.OpReadRelease:
		return b.Op == model.OpAcquire
	case model.OpPost:
		return b.Op == model.OpWait
	case model.OpGive: // ordertrace.FIFOTargets: the same target for a give and its take only
		return b.Op == model.OpTake
	}
	return false
}

// traceNaiveCyclicSet lists the nodes in a non-trivial SCC (transitive closure).
func traceNaiveCyclicSet(adj [][]bool) []int {
	n := len(adj)
	r := make([][]bool, n)
	for i := range r {
		r[i] = append([]bool(nil), adj[i]...)
	}
	for k := range n {
		for i := range n {
			if r[i][k] {
				for j := range n {
					r[i][j] = r[i][j] || r[k][j]
				}
			}
		}
	}
	var out []int
	for i := range n {
		if r[i][i] {
			out = append(out, i)
		}
	}
	return out
}

// runMonitor runs a monitor with the garbage collector's threshold and the
// free reachability slots set (no slots: every question is a search).
func runMonitor(evs []trace.Event, opts TraceOptions, gcMin int, free uint64) TraceResult {
	m := NewTraceMonitor(opts)
	m.gcMin, m.gcAt, m.free = gcMin, gcMin, free
	if gcMin == 1 {
		// Runs that collect after every transaction also index every
		// variable's reads (txn.ReadIndex), so that both ways of finding a
		// thread's read meet every generator.
		m.readIdxMin = 1
	}
	for _, e := range evs {
		m.Step(e)
	}
	return m.Finish()
}

// TestTraceMonitorAgainstNaive: on thousands of random small traces (3,000
// with CONC_LONG=1, 500 in the quick suite; fork and join, locks in and out of transactions, nested and unary
// transactions), with and without lock edges, with the graph collected
// after almost every transaction or never, and with reachability bits for
// every open transaction, none, or two, the monitor's verdict, first violating
// line and cyclic transactions equal the naive computation's, and every
// reported cycle is a real cycle of conflicts; so does the count when only
// the first cycle is spelled out (and components contract).
func TestTraceMonitorAgainstNaive(t *testing.T) {
	crossCheckNaive(t, 7, testflag.N(500, 3000), montest.SmallGen)
}

// TestTraceMonitorAgainstNaiveMedium: the same on hundreds of traces (300,
// 60 in the quick suite) of a few hundred events, with up to 8 threads and 40 variables and
// transactions long enough that recycled nodes leave many stale records
// behind (garbage.go).
func TestTraceMonitorAgainstNaiveMedium(t *testing.T) {
	crossCheckNaive(t, 8, testflag.N(60, 300), montest.GenRange{Events: [2]int{100, 300}, Threads: [2]int{2, 7}, Vars: [2]int{5, 36},
		TxnLen: [2]int{1, 24}, Locks: 5, Hot: 4, Unprotected: 0.3, Nested: 0.3})
}

// TestTraceMonitorAgainstNaiveManyReaders: the same on traces (60, 15 in
// the quick suite) of dozens of threads on a few variables, mostly read, so
// that some variables have more than txn.ReadIndexMin readers between writes
// and their reads are indexed at the default threshold too.
func TestTraceMonitorAgainstNaiveManyReaders(t *testing.T) {
	g := montest.GenRange{Events: [2]int{300, 300}, Threads: [2]int{34, 16}, Vars: [2]int{1, 3}, TxnLen: [2]int{2, 8},
		Locks: 3, Unprotected: 0.3, Nested: 0.3}
	rng := rand.New(rand.NewPCG(9, 9))
	indexed := 0
	for i := range testflag.N(15, 60) {
		o := g.Draw(rng, uint64(i))
		o.Writes = 0.02 + rng.Float64()*0.1
		checkAgainstNaive(t, o, naiveConfigs)
		m := NewTraceMonitor(TraceOptions{})
		for _, e := range montest.GenEvents(o) {
			m.Step(e)
			if len(m.readIdx) > 0 {
				indexed++
				break
			}
		}
	}
	require.Greater(t, indexed, 0, "no trace indexed a variable's reads at the default threshold")
}

// crossCheckNaive checks n traces drawn from g in every collector
// configuration; the generator must exercise both answers often, and
// contraction.
func crossCheckNaive(t *testing.T, seed uint64, n int, g montest.GenRange) {
	rng := rand.New(rand.NewPCG(seed, seed))
	violations, contracted := 0, int64(0)
	for i := range n {
		v, c := checkAgainstNaive(t, g.Draw(rng, uint64(i)), naiveConfigs)
		violations, contracted = violations+v, contracted+c
	}
	require.Positive(t, contracted, "no component was contracted")
	require.Greater(t, violations, n/10)
	require.Less(t, violations, 2*n-n/10)
}

// naiveConfig sets the collector's threshold and the free reachability
// slots of a run.
type naiveConfig struct {
	gcMin int
	free  uint64
}

// naiveConfigs: collect after almost every transaction or never; slots
// for every open transaction, none (every question a search, no garbage
// rule), or two (switching between the two as threads open and close).
var naiveConfigs = []naiveConfig{{1, ^uint64(0)}, {1 << 20, ^uint64(0)}, {1, 0}, {1 << 20, 0}, {1, 0b101}}

// checkAgainstNaive runs the monitor on the trace o generates under every
// configuration, with and without lock edges, and compares it with the
// naive computation; it returns how many of the two settings violate.
func checkAgainstNaive(t *testing.T, o trace.GenOptions, configs []naiveConfig) (violations int, contracted int64) {
	t.Helper()
	return checkEventsAgainstNaive(t, montest.GenEvents(o), fmt.Sprintf("seed %d opts=%+v", o.Seed, o), configs)
}

// checkEventsAgainstNaive is checkAgainstNaive on the events evs; what
// names them goes into a failure's message.
func checkEventsAgainstNaive(t *testing.T, evs []trace.Event, name string, configs []naiveConfig) (violations int, contracted int64) {
	t.Helper()
	for _, lockEdges := range []bool{false, true} {
		want := naiveCheck(evs, lockEdges)
		for k, cfg := range configs {
			got := runMonitor(evs, TraceOptions{LockEdges: lockEdges, MaxCycle: 1000}, cfg.gcMin, cfg.free)
			ctx := fmt.Sprintf("%s lockEdges=%v config %d\n%s", name, lockEdges, k, montest.FmtTrace(evs))
			require.Empty(t, naiveMismatch(want, got), ctx)
			for _, v := range got.Violations {
				checkReportedCycle(t, want, v, lockEdges, ctx)
			}
			// conc monitor's default: the first cycle spelled out, the
			// rest counted, members contracted (contract.go).
			one := runMonitor(evs, TraceOptions{LockEdges: lockEdges, MaxCycle: 1000, MaxViolations: 1}, cfg.gcMin, cfg.free)
			require.Equal(t, want.first, one.First, ctx)
			require.EqualValues(t, len(want.cyclic), one.Count, ctx)
			contracted += one.Stats.Contracted
			for _, v := range one.Violations {
				checkReportedCycle(t, want, v, lockEdges, ctx)
			}
			// The same counting atomic blocks only, unary runs absorbed.
			blocks := runMonitor(evs, TraceOptions{LockEdges: lockEdges, MaxCycle: 1000, MaxViolations: 1, CountBlocks: true}, cfg.gcMin, cfg.free)
			require.Equal(t, want.first, blocks.First, ctx)
			require.EqualValues(t, want.cyclicBlocks(), blocks.Count, ctx)
			for _, v := range blocks.Violations {
				checkReportedCycle(t, want, v, lockEdges, ctx)
			}
		}
		if want.first > 0 {
			violations++
		}
	}
	return violations, contracted
}

// checkReportedCycle verifies that v's cycle is a simple cycle of conflicts
// through v's transaction: consecutive transactions are linked by an
// earlier event conflicting with a later one, listed events included.
func checkReportedCycle(t *testing.T, want naiveResult, v TraceViolation, lockEdges bool, ctx string) {
	t.Helper()
	require.Zero(t, v.Elided, ctx)
	self := want.txnOf[v.Begin]
	type visit struct {
		txn         int
		enter, exit trace.Event
	}
	var visits []visit
	for _, ce := range v.Cycle {
		e, ok := want.events[ce.Line]
		require.True(t, ok, "cycle event at line %d is no event\n%s", ce.Line, ctx)
		require.Equal(t, e.Thread, ce.Thread, ctx)
		tx := want.txnOf[ce.Line]
		require.Equal(t, want.txns[tx].begin, ce.Begin, "cycle event at line %d: its transaction's begin\n%s", ce.Line, ctx)
		if k := len(visits); k > 0 && visits[k-1].txn == tx && visits[k-1].enter == visits[k-1].exit {
			visits[k-1].exit = e
			continue
		}
		visits = append(visits, visit{tx, e, e})
	}
	require.NotEmpty(t, visits, ctx)
	seen := map[int]bool{self: true}
	for _, vi := range visits {
		require.False(t, seen[vi.txn], "cycle repeats a transaction\n%s", ctx)
		seen[vi.txn] = true
	}
	// self -> first: some event of self before and conflicting with enter.
	require.True(t, txnPrecedes(want, self, visits[0].enter, lockEdges), "no edge into the cycle's first transaction\n%s", ctx)
	for i := 1; i < len(visits); i++ {
		a, b := visits[i-1].exit, visits[i].enter
		require.True(t, a.Line < b.Line && traceNaiveConflict(a, b, lockEdges), "events %d and %d do not conflict\n%s", a.Line, b.Line, ctx)
	}
	last := visits[len(visits)-1].exit
	require.True(t, txnFollows(want, self, last, lockEdges), "no edge back to the violating transaction\n%s", ctx)
	// Program order is shortcut (runs.go): no listed transaction is
	// both entered from and left to its own thread.
	for i, vi := range visits {
		prev, next := v.Thread, v.Thread
		if i > 0 {
			prev = visits[i-1].exit.Thread
		}
		if i+1 < len(visits) {
			next = visits[i+1].enter.Thread
		}
		th := vi.enter.Thread
		require.False(t, prev == th && next == th, "T%d's transaction at line %d lies inside a program-order run\n%s", th, vi.enter.Line, ctx)
	}
	checkOwnEvents(t, want, v, self, visits[0].enter, last, lockEdges, ctx)
}

// checkOwnEvents: v.Out is an event of v's own transaction that comes before
// and conflicts with enter (where the cycle enters its next transaction),
// and v.In one that comes after and conflicts with exit (where the cycle
// leaves its last).
func checkOwnEvents(t *testing.T, want naiveResult, v TraceViolation, self int, enter, exit trace.Event, lockEdges bool, ctx string) {
	t.Helper()
	out, ok := want.events[v.Out]
	require.True(t, ok && want.txnOf[v.Out] == self, "Out (line %d) is no event of the violating transaction\n%s", v.Out, ctx)
	require.True(t, out.Line < enter.Line && traceNaiveConflict(out, enter, lockEdges), "Out (line %d) does not precede line %d\n%s", v.Out, enter.Line, ctx)
	in, ok := want.events[v.In]
	require.True(t, ok && want.txnOf[v.In] == self, "In (line %d) is no event of the violating transaction\n%s", v.In, ctx)
	require.True(t, exit.Line < in.Line && traceNaiveConflict(exit, in, lockEdges), "In (line %d) does not follow line %d\n%s", v.In, exit.Line, ctx)
}

func txnPrecedes(want naiveResult, tx int, e trace.Event, lockEdges bool) bool {
	for line, f := range want.events {
		if want.txnOf[line] == tx && line < e.Line && traceNaiveConflict(f, e, lockEdges) {
			return true
		}
	}
	return false
}

func txnFollows(want naiveResult, tx int, e trace.Event, lockEdges bool) bool {
	for line, f := range want.events {
		if want.txnOf[line] == tx && line > e.Line && traceNaiveConflict(e, f, lockEdges) {
			return true
		}
	}
	return false
}

// TestTraceMonitorMaxViolations: with MaxViolations k and no callback, the
// monitor still counts every cyclic transaction but spells out and keeps
// only k, each a real cyclic transaction with a real cycle.
func TestTraceMonitorMaxViolations(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	checked := 0
	for i := 0; checked < 200 && i < 5000; i++ {
		o := montest.SmallGen.Draw(rng, uint64(i))
		evs := montest.GenEvents(o)
		want := naiveCheck(evs, true)
		if len(want.cyclic) < 3 {
			continue
		}
		checked++
		got := runMonitor(evs, TraceOptions{LockEdges: true, MaxCycle: 1000, MaxViolations: 2}, 1, ^uint64(0))
		ctx := fmt.Sprintf("seed %d\n%s", i, montest.FmtTrace(evs))
		require.EqualValues(t, len(want.cyclic), got.Count, ctx)
		require.Len(t, got.Violations, 2, ctx)
		for _, v := range got.Violations {
			require.Contains(t, want.cyclic, v.Begin, ctx)
			checkReportedCycle(t, want, v, true, ctx)
		}
	}
	require.Equal(t, 200, checked)
}
