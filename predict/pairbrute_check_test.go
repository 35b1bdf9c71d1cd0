package predict

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
)

// The checks of the two-thread oracle (pairbrute_test.go) against the
// brute engine on the projection program, and on hand-made cases.

// bruteViolates asks the brute engine about src's projection program.
func bruteViolates(t *testing.T, src string, lockEdges bool) bool {
	t.Helper()
	brute, err := engines.Lookup("brute")
	require.NoError(t, err)
	res, err := brute.Check(context.Background(), projectionOf(t, src), engines.Options{MaxDepth: 1000, LockEdges: lockEdges})
	require.NoError(t, err)
	require.NotEqual(t, engines.Unknown, res.Verdict, "brute: %s\n%s", res.Reason, src)
	return res.Verdict == engines.Violation
}

// pairOracleSources are the random traces of a check: the small generator
// and projtest's PairShape, both cut to pairTraceMaxEvents lines.
func pairOracleSources(seed uint64, threads int) []string {
	r := rand.New(rand.NewPCG(seed, 1616))
	sh := randomPairShape(r)
	sh.Threads = threads
	return []string{smallPairTrace(r, threads, pairTraceMaxEvents), firstLines(sh.Trace(r), pairTraceMaxEvents)}
}

func firstLines(src string, n int) string {
	lines := strings.SplitAfter(src, "\n")
	return strings.Join(lines[:min(n, len(lines))], "")
}

// TestPairOracleTwoThreads: with two threads every cycle is a two-thread
// cycle, so on random two-thread traces (≤ 14 events; 80 seeds quick,
// 2,000 with CONC_LONG=1, two generators, both semantics) the oracle
// finds a pair exactly when brute finds a violation. Both answers must
// occur often, and some cycles must need lock edges.
func TestPairOracleTwoThreads(t *testing.T) {
	n := testflag.N(80, 2000)
	var tally [2]int
	lockOnly := 0 // pairs that need lock, fork or join edges
	for seed := uint64(0); seed < uint64(n); seed++ {
		for _, src := range pairOracleSources(seed, 2) {
			var got [2]map[[2]string]bool
			for i, lockEdges := range []bool{false, true} {
				got[i] = twoThreadCycles(t, src, lockEdges)
				want := bruteViolates(t, src, lockEdges)
				require.Equal(t, want, len(got[i]) > 0, "seed %d lock edges %v: %v\n%s", seed, lockEdges, got[i], src)
				require.LessOrEqual(t, len(got[i]), 1)
				tally[b2i(want)]++
			}
			lockOnly += b2i(len(got[1]) > len(got[0]))
		}
	}
	t.Logf("[serializable violation]: %v, of which with lock edges only: %d", tally, lockOnly)
	require.Greater(t, tally[0], n/5)
	require.Greater(t, tally[1], n/5)
	require.Positive(t, lockOnly)
}

// TestPairOracleMoreThreads: on random traces of 3 and 4 threads (≤ 14
// events; 50 seeds quick, 1,000 with CONC_LONG=1) the oracle's pairs are
// the right ones. For each pair, isolated gives the other threads' accesses
// private variables: without lock edges the other threads then conflict
// with nothing, so brute finds a violation exactly when the pair has a
// cycle; with lock edges their lock, fork and join events still conflict,
// so brute must find one for every pair the oracle reports. Pairs must be
// found, and violations without a pair (cycles through three threads) are
// counted.
func TestPairOracleMoreThreads(t *testing.T) {
	n := testflag.N(50, 1000)
	paired, unpaired, clean := 0, 0, 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		for _, src := range pairOracleSources(seed, 3+int(seed%2)) {
			for _, lockEdges := range []bool{false, true} {
				got := twoThreadCycles(t, src, lockEdges)
				for _, p := range threadPairs(src) {
					if got[p] || !lockEdges {
						require.Equal(t, got[p], bruteViolates(t, isolated(src, p), lockEdges),
							"seed %d lock edges %v: pair %v, oracle %v\n%s", seed, lockEdges, p, got, src)
					}
				}
				switch want := bruteViolates(t, src, lockEdges); {
				case len(got) > 0:
					require.True(t, want, "seed %d lock edges %v: oracle %v, brute serializable\n%s", seed, lockEdges, got, src)
					paired++
				case want:
					unpaired++
				default:
					clean++
				}
			}
		}
	}
	t.Logf("pairs found %d, violations without a pair %d, serializable %d", paired, unpaired, clean)
	require.Greater(t, paired, n/5)
	require.Greater(t, clean, n/5)
}

// threadPairs lists the sorted pairs of the threads that have a line in src.
func threadPairs(src string) [][2]string {
	names := threadNames(src)
	var out [][2]string
	for i, a := range names {
		for _, b := range names[i+1:] {
			out = append(out, sortedPair(a, b))
		}
	}
	return out
}

// isolated rewrites every access of a thread outside pair p to a variable
// of that thread alone (its name and "~", which no generated variable has).
func isolated(src string, p [2]string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(src, "\n") {
		f := strings.SplitN(l, "|", 2)
		if len(f) == 2 && f[0] != p[0] && f[0] != p[1] && (strings.HasPrefix(f[1], "r(") || strings.HasPrefix(f[1], "w(")) {
			l = f[0] + "|" + f[1][:2] + "~" + f[0] + ")\n"
		}
		b.WriteString(l)
	}
	return b.String()
}

// TestPairOracleMemoIsSound: the memoised search (states: positions and
// cross edges) gives the plain search's answer, over every interleaving,
// on random traces of 2 to 4 threads (≤ 10 events, so the plain search
// stays small; 50 seeds quick, 600 with CONC_LONG=1).
func TestPairOracleMemoIsSound(t *testing.T) {
	n := testflag.N(50, 600)
	found, saved := 0, 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 1617))
		src := smallPairTrace(r, 2+r.IntN(3), 10)
		for _, lockEdges := range []bool{false, true} {
			memo := newPairOracle(t, src, lockEdges, true)
			memo.search()
			plain := newPairOracle(t, src, lockEdges, false)
			plain.search()
			require.Equal(t, plain.found, memo.found, "seed %d lock edges %v\n%s", seed, lockEdges, src)
			found += len(memo.found)
			saved += plain.states - memo.states
		}
	}
	t.Logf("pairs %d; states the memo skipped %d", found, saved)
	require.Greater(t, found, n/5)
	require.Positive(t, saved)
}

// sortedPair is the oracle's key for threads a and b.
func sortedPair(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// TestPairOracleCases: hand-made programs whose answers are known, under
// both semantics unless the case says.
func TestPairOracleCases(t *testing.T) {
	none := map[[2]string]bool{}
	for _, c := range []struct {
		name       string
		src        string
		want, lock map[[2]string]bool // without and with lock edges
		violates   bool               // brute's verdict (both semantics)
	}{
		{"classic: T2 writes between T1's read and write",
			"T1|begin\nT1|r(x)\nT1|w(x)\nT1|end\nT2|w(x)\n",
			map[[2]string]bool{sortedPair("T1", "T2"): true}, map[[2]string]bool{sortedPair("T1", "T2"): true}, true},
		{"the pair is the first and third thread; a fourth forks nothing",
			"T1|begin\nT1|r(x)\nT2|w(y)\nT2|r(y)\nT3|w(x)\nT4|r(x)\nT1|w(x)\nT1|end\n",
			map[[2]string]bool{sortedPair("T1", "T3"): true}, map[[2]string]bool{sortedPair("T1", "T3"): true}, true},
		// T1's transaction reads x and y; T2 writes x, T3 writes y, each
		// between T1's reads in some run (the two pairs in separate runs
		// or one).
		{"two pairs",
			"T1|begin\nT1|r(x)\nT1|r(y)\nT1|r(x)\nT1|r(y)\nT1|end\nT2|w(x)\nT3|w(y)\n",
			map[[2]string]bool{sortedPair("T1", "T2"): true, sortedPair("T1", "T3"): true},
			map[[2]string]bool{sortedPair("T1", "T2"): true, sortedPair("T1", "T3"): true}, true},
		// §3's normalisation: the inner acq(l) is re-entrant, dropped with
		// the first rel(l), so l covers both accesses.
		{"a re-entrant acquire keeps the lock",
			"T1|begin\nT1|acq(l)\nT1|acq(l)\nT1|r(x)\nT1|rel(l)\nT1|w(x)\nT1|rel(l)\nT1|end\nT2|acq(l)\nT2|w(x)\nT2|rel(l)\n",
			none, none, false},
		{"a nested transaction is flattened",
			"T1|begin\nT1|r(x)\nT1|begin\nT1|end\nT1|w(x)\nT1|end\nT2|w(x)\n",
			map[[2]string]bool{sortedPair("T1", "T2"): true}, map[[2]string]bool{sortedPair("T1", "T2"): true}, true},
		// T1→T2 on x, T2→T3 on z, T3→T1 on y in the run T1 w(x), T2 r(x)
		// w(z), T3 r(z) r(y), T1 w(y); each pair shares one variable with
		// one access on each side, so no two threads have two edges.
		{"three-thread cycle only",
			"T1|begin\nT1|w(x)\nT1|w(y)\nT1|end\nT2|begin\nT2|r(x)\nT2|w(z)\nT2|end\nT3|begin\nT3|r(z)\nT3|r(y)\nT3|end\n",
			none, none, true},
		{"a lock makes it impossible",
			"T1|begin\nT1|acq(l)\nT1|r(x)\nT1|w(x)\nT1|rel(l)\nT1|end\nT2|acq(l)\nT2|w(x)\nT2|rel(l)\nT3|r(x)\n",
			none, none, false},
		{"fork makes it impossible: T2 starts after T1's accesses",
			"T1|begin\nT1|r(x)\nT1|w(x)\nT1|fork(T2)\nT1|end\nT2|w(x)\n",
			none, none, false},
		{"a third thread forks the pair",
			"T0|fork(T1)\nT0|fork(T2)\nT1|begin\nT1|r(x)\nT1|w(x)\nT1|end\nT2|w(x)\n",
			map[[2]string]bool{sortedPair("T1", "T2"): true}, map[[2]string]bool{sortedPair("T1", "T2"): true}, true},
		// T1 rel(l) before T2 acq(l): T1→T2; T2 w(x) before T1 r(x): T2→T1.
		{"needs a release→acquire edge",
			"T1|begin\nT1|acq(l)\nT1|rel(l)\nT2|begin\nT2|w(x)\nT1|r(x)\nT1|end\nT2|acq(l)\nT2|rel(l)\nT2|end\n",
			none, map[[2]string]bool{sortedPair("T1", "T2"): true}, false},
		{"needs a fork edge",
			"T0|begin\nT0|fork(T1)\nT1|w(x)\nT0|r(x)\nT0|end\n",
			none, map[[2]string]bool{sortedPair("T0", "T1"): true}, false},
		{"needs a join edge",
			"T0|begin\nT0|w(x)\nT1|r(x)\nT0|join(T1)\nT0|end\n",
			none, map[[2]string]bool{sortedPair("T0", "T1"): true}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, lockEdges := range []bool{false, true} {
				want := c.want
				if lockEdges {
					want = c.lock
				}
				require.Equal(t, want, twoThreadCycles(t, c.src, lockEdges), "lock edges %v", lockEdges)
				require.Equal(t, c.violates || len(want) > 0, bruteViolates(t, c.src, lockEdges), "brute, lock edges %v", lockEdges)
			}
		})
	}
}

// TestRandomPairTraces: the generator's traces are valid (the reader
// accepts them), at most pairTraceMaxEvents lines, of 2 to 4 threads, and
// (over 200 seeds) show each feature it promises.
func TestRandomPairTraces(t *testing.T) {
	seen := map[string]int{}
	for seed := uint64(0); seed < 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 1618))
		src := randomPairTraces(r)
		require.LessOrEqual(t, strings.Count(src, "\n"), pairTraceMaxEvents)
		threads := len(newPairOracle(t, src, true, true).names)
		require.True(t, threads >= 1 && threads <= 4, "%d threads\n%s", threads, src)
		seen[fmt.Sprintf("%d threads", len(threadNames(src)))]++
		for _, f := range traceFeatures(src) {
			seen[f]++
		}
	}
	t.Logf("features: %v", seen)
	for _, f := range []string{"2 threads", "3 threads", "4 threads", "fork", "join", "nested lock", "released out of order",
		"unary access", "multi-access transaction", "lock outside a transaction", "fork inside a transaction"} {
		require.Positive(t, seen[f], f)
	}
}

// traceFeatures names the features of src, following each thread's
// transactions and held locks line by line.
func traceFeatures(src string) []string {
	open := map[string]int{}      // thread → accesses in its open transaction, -1 when none
	held := map[string][]string{} // thread → locks held, in acquisition order
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(src), "\n") {
		th, op, _ := strings.Cut(l, "|")
		if _, ok := open[th]; !ok {
			open[th] = -1
		}
		switch {
		case op == "begin":
			open[th] = 0
		case op == "end":
			if open[th] > 1 {
				out = append(out, "multi-access transaction")
			}
			open[th] = -1
		case strings.HasPrefix(op, "r(") || strings.HasPrefix(op, "w("):
			if open[th] < 0 {
				out = append(out, "unary access")
			} else {
				open[th]++
			}
		case strings.HasPrefix(op, "acq("):
			if len(held[th]) > 0 {
				out = append(out, "nested lock")
			}
			if open[th] < 0 {
				out = append(out, "lock outside a transaction")
			}
			held[th] = append(held[th], op[4:])
		case strings.HasPrefix(op, "rel("):
			if h := held[th]; len(h) > 1 && h[len(h)-1] != op[4:] {
				out = append(out, "released out of order")
			}
			held[th] = slices.DeleteFunc(held[th], func(k string) bool { return k == op[4:] })
		case strings.HasPrefix(op, "fork("):
			out = append(out, "fork")
			if open[th] >= 0 {
				out = append(out, "fork inside a transaction")
			}
		case strings.HasPrefix(op, "join("):
			out = append(out, "join")
		}
	}
	return out
}

// threadNames lists the threads that have a line in src.
func threadNames(src string) []string {
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(src), "\n") {
		if th, _, _ := strings.Cut(l, "|"); !slices.Contains(names, th) {
			names = append(names, th)
		}
	}
	return names
}
