package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/report/predicted"
	"github.com/conc-dev/conc/trace"
)

// The tests of this file check the transactions predict's witnesses break
// by themselves (docs/spec.md §1, witness.broken in §5) against a brute
// force that follows the definition literally: the transitive closure of
// program order and the run's conflicts, computed over the whole run.

// pbEv is one event of a run as the brute force sees it: op spelled as
// witness.run spells it (read, write, acquire, ...).
type pbEv struct{ thread, op, target string }

// pbRun is a run with its transactions and its order →.
type pbRun struct {
	evs       []pbEv
	lockEdges bool
	// txn[i] is the run index of the begin of the transaction holding
	// event i, -1 for an event outside any.
	txn []int
	// reach[i] is the set of events j with i → j (j ≠ i), a bitset.
	reach [][]uint64
}

func newPBRun(evs []pbEv, lockEdges bool) *pbRun {
	r := &pbRun{evs: evs, lockEdges: lockEdges, txn: pbTxns(evs)}
	r.closure()
	return r
}

// pbTxns finds each event's transaction from its thread's begin and end
// (an inner begin and end, if any, nest in the outer transaction).
func pbTxns(evs []pbEv) []int {
	open, depth := map[string]int{}, map[string]int{}
	txn := make([]int, len(evs))
	for i, e := range evs {
		if e.op == "begin" {
			if depth[e.thread]++; depth[e.thread] == 1 {
				open[e.thread] = i
			}
		}
		txn[i] = -1
		if depth[e.thread] > 0 {
			txn[i] = open[e.thread]
		}
		if e.op == "end" && depth[e.thread] > 0 {
			depth[e.thread]--
		}
	}
	return txn
}

// edge is the definition's edge between events i < j of different threads:
// a conflict (same variable, one a write) or, with lock edges, a release
// before an acquire of its lock, a fork before the forked thread's events,
// a joined thread's events before the join.
func (r *pbRun) edge(i, j int) bool {
	a, b := r.evs[i], r.evs[j]
	if a.thread == b.thread || i >= j {
		return false
	}
	access := func(op string) bool { return op == "read" || op == "write" }
	if access(a.op) && access(b.op) && a.target == b.target && (a.op == "write" || b.op == "write") {
		return true
	}
	if !r.lockEdges {
		return false
	}
	return a.op == "release" && b.op == "acquire" && a.target == b.target ||
		a.op == "fork" && a.target == b.thread ||
		b.op == "join" && b.target == a.thread
}

// closure computes reach backwards through the run: every edge (program
// order included) goes forward in it.
func (r *pbRun) closure() {
	n := len(r.evs)
	words := (n + 63) / 64
	r.reach = make([][]uint64, n)
	for i := n - 1; i >= 0; i-- {
		r.reach[i] = make([]uint64, words)
		poNext := true // the first later event of i's thread follows it in program order
		for j := i + 1; j < n; j++ {
			po := poNext && r.evs[j].thread == r.evs[i].thread
			if po {
				poNext = false
			}
			if po || r.edge(i, j) {
				r.reach[i][j/64] |= 1 << (j % 64)
				for w := range words {
					r.reach[i][w] |= r.reach[j][w]
				}
			}
		}
	}
}

func (r *pbRun) reaches(i, j int) bool { return r.reach[i][j/64]&(1<<(j%64)) != 0 }

// broken: the transaction that begins at run index b is broken by itself,
// the definition word for word: some e of another thread has b → e → e'
// for an event e' of the transaction.
func (r *pbRun) broken(b int) bool {
	for e := range r.evs {
		if r.evs[e].thread == r.evs[b].thread || !r.reaches(b, e) {
			continue
		}
		for e2 := range r.evs {
			if r.txn[e2] == b && r.reaches(e, e2) {
				return true
			}
		}
	}
	return false
}

// pbHop is an edge of a path (or of the cycle), by run index.
type pbHop struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// pbBroken is a broken transaction as witness.broken lists it.
type pbBroken struct {
	Txn  int     `json:"txn"`
	Path []pbHop `json:"path"`
}

// checkBrokenSet: the transactions broken lists (each the transaction of
// cycle[K].from) are exactly the cycle's transactions the brute force finds
// broken, once each, and each path is valid (checkPBPath). It returns how
// many are broken.
func checkBrokenSet(t *testing.T, r *pbRun, cycle []pbHop, broken []pbBroken, ctx string) int {
	t.Helper()
	var want, got []int
	for _, c := range cycle {
		if b := r.txn[c.From]; b >= 0 && r.broken(b) && !slices.Contains(want, b) {
			want = append(want, b)
		}
	}
	for _, x := range broken {
		require.True(t, x.Txn >= 0 && x.Txn < len(cycle), "%s: txn %d of a %d-edge cycle", ctx, x.Txn, len(cycle))
		b := r.txn[cycle[x.Txn].From]
		require.GreaterOrEqual(t, b, 0, "%s: broken txn %d: cycle event %d lies in no transaction", ctx, x.Txn, cycle[x.Txn].From)
		require.NotContains(t, got, b, "%s: the transaction beginning at run event %d is listed twice", ctx, b)
		got = append(got, b)
		checkPBPath(t, r, b, x.Path, fmt.Sprintf("%s: txn %d (begin at run event %d)", ctx, x.Txn, b))
	}
	slices.Sort(want)
	slices.Sort(got)
	require.Equal(t, want, got, "%s: the begins of the cycle's broken transactions (brute force, then witness.broken)", ctx)
	return len(got)
}

// checkPBPath: the path leaves the transaction beginning at run index b
// from one of its events and comes back to one, each hop is an edge of the
// definition, and between two hops it stays in one other thread, in run
// order, no thread twice.
func checkPBPath(t *testing.T, r *pbRun, b int, path []pbHop, ctx string) {
	t.Helper()
	require.NotEmpty(t, path, ctx)
	n := len(r.evs)
	seen := []string{r.evs[b].thread}
	for k, h := range path {
		require.True(t, 0 <= h.From && h.From < h.To && h.To < n, "%s: hop %d %+v", ctx, k, h)
		require.True(t, r.edge(h.From, h.To), "%s: hop %d %+v: %+v → %+v is no edge", ctx, k, h, r.evs[h.From], r.evs[h.To])
		if k == 0 {
			continue
		}
		prev := path[k-1].To
		th := r.evs[prev].thread
		require.Equal(t, th, r.evs[h.From].thread, "%s: hops %d and %d: the path leaves the thread it entered", ctx, k-1, k)
		require.LessOrEqual(t, prev, h.From, "%s: hops %d and %d go back in the run", ctx, k-1, k)
		require.NotContains(t, seen, th, "%s: hop %d: thread %s visited twice (or the transaction's own)", ctx, k, th)
		seen = append(seen, th)
	}
	require.Equal(t, b, r.txn[path[0].From], "%s: the path leaves from run event %d, not the transaction's", ctx, path[0].From)
	require.Equal(t, b, r.txn[path[len(path)-1].To], "%s: the path comes back to run event %d, not the transaction's", ctx, path[len(path)-1].To)
}

// pbRandomTrace draws a small trace of 2 to 4 threads: with varied, with
// or without locks, nested transactions, unary accesses and fork/join;
// else lock-free, of 3 or 4 threads whose transactions have 2 or 3
// accesses, which makes joint violations (write skew and longer rings)
// more common.
func pbRandomTrace(rng *rand.Rand, varied bool) string {
	o := trace.GenOptions{Seed: rng.Uint64(), Events: int64(8 + rng.IntN(16)), Threads: 3 + rng.IntN(2),
		Vars: 2 + rng.IntN(3), TxnLen: 2 + rng.IntN(2), Unprotected: 1, Writes: 0.5, Nested: rng.Float64() / 4}
	if varied {
		o = trace.GenOptions{Seed: rng.Uint64(), Events: int64(10 + rng.IntN(40)),
			Threads: 2 + rng.IntN(3), Vars: 1 + rng.IntN(3), Locks: rng.IntN(3), TxnLen: 2 + rng.IntN(3),
			Unprotected: rng.Float64(), Unary: rng.Float64() / 3, Nested: rng.Float64() / 4,
			Writes: 0.3 + 0.7*rng.Float64(), Fork: rng.IntN(3) == 0}
	}
	g := trace.NewGen(o)
	var evs []trace.Event
	buf := make([]trace.Event, 64)
	for {
		n, err := g.Read(buf)
		evs = append(evs, buf[:n]...)
		if err == io.EOF {
			return stdText(evs, trace.GenName)
		}
	}
}

// pbTally counts the checked violations by kind, so that a test cannot
// pass on traces without either.
type pbTally struct{ traces, broken, joint, txns int }

// pbTraces writes n random traces (seeded, of both kinds of
// pbRandomTrace) and calls check on each, with lock edges on every other
// one.
func pbTraces(t *testing.T, n int, seed uint64, check func(path string, lockEdges bool, ctx string)) {
	rng := rand.New(rand.NewPCG(seed, 0xb10c))
	dir := t.TempDir()
	for i := range n {
		std := pbRandomTrace(rng, i/2%2 == 0)
		path := filepath.Join(dir, fmt.Sprintf("r%d.std", i))
		require.NoError(t, os.WriteFile(path, []byte(std), 0o644))
		lockEdges := i%2 == 1
		check(path, lockEdges, fmt.Sprintf("trace %d (lock edges %v):\n%s", i, lockEdges, std))
	}
}

// pbArgs is the command line of conc predict on path.
func pbArgs(path string, lockEdges bool, more ...string) []string {
	args := append([]string{"predict", path}, more...)
	if lockEdges {
		args = append(args, "--lock-edges")
	}
	return args
}

// pbLineOf is the trace line of a pos FILE:LINE.
func pbLineOf(t *testing.T, pos string) int {
	t.Helper()
	n, err := strconv.Atoi(pos[strings.LastIndexByte(pos, ':')+1:])
	require.NoError(t, err, pos)
	return n
}

// pbBits is how many events a bitset holds (a sanity check of the closure).
func pbBits(s []uint64) int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// pbWitnessJSON is conc predict's JSON witness, broken a pointer so that
// an absent member is told from an empty one.
type pbWitnessJSON struct {
	Verdict string `json:"verdict"`
	Witness *struct {
		Run []struct {
			Thread, Op, Target, Pos string
		} `json:"run"`
		Cycle  []pbHop     `json:"cycle"`
		Broken *[]pbBroken `json:"broken"`
	} `json:"witness"`
}

// TestPredictWitnessBroken: on random traces (trace.Gen; 300 quick, 3000
// with CONC_LONG=1), with and without --lock-edges, witness.broken of conc
// predict's JSON names exactly the cycle's transactions that the witness
// run breaks by itself by the brute force, each with a valid path, and []
// for a joint violation; the text says the same (one "is broken by itself"
// paragraph each, or the joint violation's line).
func TestPredictWitnessBroken(t *testing.T) {
	var tally pbTally
	var absent []string // joint violations whose witness lacks broken
	pbTraces(t, testflag.N(300, 3000), 31, func(path string, lockEdges bool, ctx string) {
		out := conc(pbArgs(path, lockEdges, "--format", "json")...)
		require.Contains(t, []int{exitViolation, exitSerializable}, out.code, "%s\n%s", ctx, out.stdout+out.stderr)
		var got pbWitnessJSON
		require.NoError(t, json.Unmarshal([]byte(out.stdout), &got), out.stdout)
		tally.traces++
		if got.Witness == nil {
			require.Equal(t, "serializable", got.Verdict, ctx)
			return
		}
		w := got.Witness
		var evs []pbEv
		for _, e := range w.Run {
			evs = append(evs, pbEv{e.Thread, e.Op, e.Target})
		}
		r := newPBRun(evs, lockEdges)
		for _, c := range w.Cycle {
			require.GreaterOrEqual(t, r.txn[c.From], 0, "%s: cycle event %d outside any transaction", ctx, c.From)
			require.True(t, r.reaches(c.From, c.To), "%s: cycle edge %+v not in →", ctx, c)
		}
		var broken []pbBroken
		if w.Broken == nil {
			absent = append(absent, ctx)
		} else {
			broken = *w.Broken
		}
		n := checkBrokenSet(t, r, w.Cycle, broken, ctx)
		tally.txns += n
		if n > 0 {
			tally.broken++
		} else {
			tally.joint++
		}
		checkPBText(t, conc(pbArgs(path, lockEdges)...).stdout, n, ctx)
	})
	t.Logf("%d traces: %d witnesses with broken transactions (%d in all), %d joint violations",
		tally.traces, tally.broken, tally.txns, tally.joint)
	require.Zero(t, len(absent), "%d of %d witnesses have no member broken (a joint violation's should be []); the first:\n%s",
		len(absent), tally.broken+tally.joint, strings.Join(absent[:min(1, len(absent))], ""))
	require.Greater(t, tally.broken, tally.traces/3, "witnesses with broken transactions should be common")
	require.Greater(t, tally.joint, tally.traces/20, "and joint violations not rare")
}

// checkPBText: predict's text has one "is broken by itself" paragraph per
// broken transaction, or the joint violation's line when there is none.
func checkPBText(t *testing.T, text string, broken int, ctx string) {
	t.Helper()
	require.Equal(t, broken, strings.Count(text, " is broken by itself in this run: the path leaves it and comes back:\n"), "%s\n%s", ctx, text)
	joint := "no transaction of the cycle is broken by itself in this run: together they cannot all be atomic (a joint violation)\n"
	require.Equal(t, broken == 0, strings.Contains(text, joint), "%s\n%s", ctx, text)
}

// TestPredictWitnessBrokenWriteSkew: write skew, each transaction reading
// one variable and writing the other's, breaks neither by itself in any
// run: predict's witness is a joint violation, broken [] in the JSON, the
// joint violation's line in the text; and the brute force agrees.
func TestPredictWitnessBrokenWriteSkew(t *testing.T) {
	path := file(t, "skew.std", "T1|begin\nT1|r(x)\nT2|begin\nT2|r(y)\nT1|w(y)\nT2|w(x)\nT1|end\nT2|end\n")
	out := conc("predict", path, "--format", "json")
	require.Equal(t, exitViolation, out.code, out.stdout+out.stderr)
	var raw struct{ Witness map[string]json.RawMessage }
	require.NoError(t, json.Unmarshal([]byte(out.stdout), &raw), out.stdout)
	broken, ok := raw.Witness["broken"]
	require.True(t, ok, "a joint violation's witness has broken: []\n%s", out.stdout)
	require.JSONEq(t, "[]", string(broken))

	var got pbWitnessJSON
	require.NoError(t, json.Unmarshal([]byte(out.stdout), &got))
	var evs []pbEv
	for _, e := range got.Witness.Run {
		evs = append(evs, pbEv{e.Thread, e.Op, e.Target})
	}
	r := newPBRun(evs, false)
	require.Zero(t, checkBrokenSet(t, r, got.Witness.Cycle, nil, "write skew"))
	require.Positive(t, pbBits(r.reach[0]), "the closure reaches past T1's begin")

	text := conc("predict", path)
	require.Equal(t, exitViolation, text.code, text.stderr)
	require.Contains(t, text.stdout, "\nno transaction of the cycle is broken by itself in this run: together they cannot all be atomic (a joint violation)\n")
	require.NotContains(t, text.stdout, "is broken by itself in this run: the path")
}

// pbAllEv is an event of --all's JSON, spelled as witness.run's.
type pbAllEv struct{ Thread, Op, Target, Pos string }

type pbAllJSON struct {
	Groups []struct {
		Group  int
		Cycle  []struct{ From, To pbAllEv }
		Broken *[]struct {
			Txn  int
			Path []struct{ From, To pbAllEv }
		}
		Schedule predicted.Schedule
	}
}

// pbOps spells STD's ops as witness.run does.
var pbOps = map[string]string{"r": "read", "w": "write", "acq": "acquire", "rel": "release",
	"fork": "fork", "join": "join", "begin": "begin", "end": "end"}

// pbAt keys a run event by its trace line and op: a unary event shares
// its line with the begin and end around it.
type pbAt struct {
	line int
	op   string
}

// pbScheduleRun is a group's run rebuilt from its schedule (as docs/spec.md
// §5 states it), with the begin and end around each unary event put back
// as the witness run has them (around lock, fork and join events too with
// lock edges: their edges may enter or leave through them), and the run
// index of each event.
func pbScheduleRun(t *testing.T, src string, sch predicted.Schedule, lockEdges bool) (*pbRun, map[pbAt]int) {
	t.Helper()
	var evs []pbEv
	at := map[pbAt]int{}
	depth := map[string]int{}
	add := func(line int, e pbEv) {
		at[pbAt{line, e.op}] = len(evs)
		evs = append(evs, e)
	}
	for _, l := range strings.Split(strings.TrimSuffix(scheduledSTD(t, src, sch, false), "\n"), "\n") {
		f := strings.Split(l, "|")
		require.Len(t, f, 3, l)
		op, target, _ := strings.Cut(strings.TrimSuffix(f[1], ")"), "(")
		require.Contains(t, pbOps, op, l)
		line, e := pbLineOf(t, f[2]), pbEv{f[0], pbOps[op], target}
		depth[e.thread] += map[string]int{"begin": 1, "end": -1}[e.op]
		access := e.op == "read" || e.op == "write"
		unary := depth[e.thread] == 0 && e.op != "end" && (access || lockEdges)
		if unary {
			add(line, pbEv{e.thread, "begin", ""})
		}
		add(line, e)
		if unary {
			add(line, pbEv{e.thread, "end", ""})
		}
	}
	return newPBRun(evs, lockEdges), at
}

// pbIndex is the run index of an --all event, checked against the run.
func pbIndex(t *testing.T, r *pbRun, at map[pbAt]int, e pbAllEv, ctx string) int {
	t.Helper()
	i, ok := at[pbAt{pbLineOf(t, e.Pos), e.Op}]
	require.True(t, ok, "%s: event %+v is not in the schedule's run", ctx, e)
	require.Equal(t, pbEv{e.Thread, e.Op, e.Target}, r.evs[i], "%s: event %+v", ctx, e)
	return i
}

// TestPredictAllWitnessBroken: as TestPredictWitnessBroken for every group
// of conc predict --all --format json (checkPBAll; 200 random traces
// quick, 2000 with CONC_LONG=1); and on two small traces: one whose path
// leaves the broken transaction from a later event than its cycle does,
// one whose groups' runs break a transaction that is not on the cycle.
func TestPredictAllWitnessBroken(t *testing.T) {
	var tally pbTally
	pbTraces(t, testflag.N(200, 2000), 47, func(path string, lockEdges bool, ctx string) {
		checkPBAll(t, path, lockEdges, ctx, &tally)
	})
	t.Logf("%d traces: %d groups with broken transactions (%d in all), %d joint violations",
		tally.traces, tally.broken, tally.txns, tally.joint)
	require.Greater(t, tally.broken, tally.traces/2, "groups with broken transactions should be common")
	require.Greater(t, tally.joint, tally.traces/20, "and joint violations not rare")

	// The cycle leaves T2's transaction at line 3, its path at line 4 (the
	// last write before T0's): the transaction is broken all the same.
	later := file(t, "later.std", "T2|begin\nT2|acq(l0)\nT2|w(x0)\nT2|w(x0)\nT2|rel(l0)\n"+
		"T0|acq(l0)\nT0|w(x0)\nT0|rel(l0)\nT2|w(x0)\nT2|end\n")
	tally = pbTally{}
	checkPBAll(t, later, false, "later.std", &tally)
	require.Equal(t, pbTally{traces: 1, broken: 1, txns: 1}, tally)
	// With lock edges T0's fork breaks T0's transaction; T1's first
	// transaction is broken in the run of the group of its second.
	forked := file(t, "forked.std", "T0|begin\nT0|fork(T1)\nT1|begin\nT1|w(x0)\nT0|r(x0)\nT1|w(x0)\n"+
		"T0|end\nT1|end\nT1|begin\nT1|r(x0)\nT1|w(x0)\nT0|w(x0)\n")
	tally = pbTally{}
	checkPBAll(t, forked, true, "forked.std --lock-edges", &tally)
	require.Equal(t, pbTally{traces: 1, broken: 3, txns: 4}, tally)
}

// checkPBAll: a group's broken names exactly the transactions of its cycle
// that its run (rebuilt from its schedule) breaks by itself, by the brute
// force, each with a valid path, [] for a joint violation; the group's
// text has as many "is broken by itself" paragraphs.
func checkPBAll(t *testing.T, path string, lockEdges bool, ctx string, tally *pbTally) {
	t.Helper()
	out := conc(pbArgs(path, lockEdges, "--all", "--format", "json")...)
	require.Contains(t, []int{exitViolation, exitSerializable}, out.code, "%s\n%s", ctx, out.stdout+out.stderr)
	var got pbAllJSON
	require.NoError(t, json.Unmarshal([]byte(out.stdout), &got), out.stdout)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	texts := pbGroupTexts(conc(pbArgs(path, lockEdges, "--all", "--max-groups", "0")...).stdout)
	require.Len(t, texts, len(got.Groups), "%s: groups in the text and the JSON", ctx)
	tally.traces++
	for k, g := range got.Groups {
		gctx := fmt.Sprintf("%s\ngroup %d", ctx, g.Group)
		r, at := pbScheduleRun(t, string(src), g.Schedule, lockEdges)
		var cycle []pbHop
		for _, c := range g.Cycle {
			cycle = append(cycle, pbHop{pbIndex(t, r, at, c.From, gctx), pbIndex(t, r, at, c.To, gctx)})
		}
		require.NotNil(t, g.Broken, "%s: no member broken", gctx)
		var broken []pbBroken
		for _, x := range *g.Broken {
			b := pbBroken{Txn: x.Txn}
			for _, h := range x.Path {
				b.Path = append(b.Path, pbHop{pbIndex(t, r, at, h.From, gctx), pbIndex(t, r, at, h.To, gctx)})
			}
			broken = append(broken, b)
		}
		n := checkBrokenSet(t, r, cycle, broken, gctx)
		checkPBText(t, texts[k], n, gctx)
		tally.txns += n
		if n > 0 {
			tally.broken++
		} else {
			tally.joint++
		}
	}
}

// pbGroupTexts cuts predict --all's text into its groups' paragraphs.
func pbGroupTexts(text string) []string {
	parts := strings.Split(text, "\ngroup ")
	for i := range len(parts) - 1 {
		parts[i] += "\n" // the line's end, which Split took
	}
	return parts[1:]
}
