package predict

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// forkTraceMaxEvents bounds forkTrace's traces, so that the exhaustive
// reference (forks_random_test.go) stays small.
const forkTraceMaxEvents = 16

// forkTrace draws a small random STD trace of fork and join shapes: 2 to
// 4 threads with short scripts (transactions, unary accesses, lock blocks,
// a lone begin, an empty transaction), a fork forest in which any earlier
// thread may fork a later one anywhere in its script (inside a
// transaction too) or no one does, joins by the forker or by another
// thread, a thread with no events that is joined (and sometimes forked
// first), and sometimes a fork line that docs/spec.md §3 refuses (a second
// fork, from the same thread or another, or a fork after a join). The
// interleaving respects locks, fork and join; it is then cut at a random
// line half the time (a prefix of a trace is a trace, open transactions
// and held locks included) and at forkTraceMaxEvents lines always.
func forkTrace(r *rand.Rand) string {
	threads := 2 + r.IntN(3)
	g := pairGen{r: r, vars: 1 + r.IntN(3)/2, locks: r.IntN(2)}
	scripts := make([][]step, threads+1) // the last: a thread with no events
	for t := range threads {
		for n := 1 + r.IntN(2); n > 0; n-- {
			scripts[t] = append(scripts[t], forkItem(g)...)
		}
	}
	forkForest(r, scripts[:threads])
	if r.IntN(3) == 0 {
		quietThread(r, scripts)
	}
	lines := strings.SplitAfter(forkSchedule(r, scripts), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last line end
	if r.IntN(4) == 0 {
		lines = badFork(r, lines, threads)
	}
	cut := len(lines)
	if r.IntN(2) == 0 {
		cut = r.IntN(len(lines) + 1)
	}
	return strings.Join(lines[:min(cut, forkTraceMaxEvents)], "")
}

// forkItem is a script item: pairGen's (a unary access, a transaction, a
// lock block), a lone begin (a transaction left open) or an empty one.
func forkItem(g pairGen) []step {
	switch g.r.IntN(6) {
	case 0:
		return []step{{Op: "begin"}}
	case 1:
		return []step{{Op: "begin"}, {Op: "end"}}
	}
	return g.item()
}

// forkForest has each thread u ≥ 1 forked, three times in four, by a
// random earlier thread at a random point of its script, and then
// sometimes joined: by the forker after the fork, or by another earlier
// thread at its end.
func forkForest(r *rand.Rand, scripts [][]step) {
	for u := 1; u < len(scripts); u++ {
		if r.IntN(4) == 0 {
			continue
		}
		p := r.IntN(u)
		at := r.IntN(len(scripts[p]) + 1)
		scripts[p] = insertStep(scripts[p], at, step{Op: "fork", Target: fmt.Sprintf("T%d", u)})
		switch r.IntN(3) {
		case 0:
			at = at + 1 + r.IntN(len(scripts[p])-at)
			scripts[p] = insertStep(scripts[p], at, step{Op: "join", Target: fmt.Sprintf("T%d", u)})
		case 1:
			j := r.IntN(u)
			scripts[j] = append(scripts[j], step{Op: "join", Target: fmt.Sprintf("T%d", u)})
		}
	}
}

// quietThread has a thread join the last thread, which has no events,
// and sometimes fork it first.
func quietThread(r *rand.Rand, scripts [][]step) {
	q := len(scripts) - 1
	j := r.IntN(q)
	at := r.IntN(len(scripts[j]) + 1)
	if r.IntN(2) == 0 {
		scripts[j] = insertStep(scripts[j], at, step{Op: "fork", Target: fmt.Sprintf("T%d", q)})
		at++
	}
	at += r.IntN(len(scripts[j]) - at + 1)
	scripts[j] = insertStep(scripts[j], at, step{Op: "join", Target: fmt.Sprintf("T%d", q)})
}

// forkSchedule interleaves the scripts at random until no thread can
// move: a thread that some script forks starts at its fork, the others at
// once; an acq waits for its lock, a join for its thread's script to end.
func forkSchedule(r *rand.Rand, scripts [][]step) string {
	started := make([]bool, len(scripts))
	for t := range started {
		started[t] = true
	}
	for _, s := range scripts {
		for _, st := range s {
			if st.Op == "fork" {
				started[threadOf(st.Target)] = false
			}
		}
	}
	return interleave(r, scripts, started, func(next []int, owner map[string]int, t int) bool {
		return forkEnabled(scripts, next, owner, started, t)
	})
}

// forkEnabled is enabled (helpers_test.go) for a join that also waits
// for its thread's fork: a thread not yet forked has not finished.
func forkEnabled(scripts [][]step, next []int, owner map[string]int, started []bool, t int) bool {
	if st := scripts[t][next[t]]; st.Op == "join" && !started[threadOf(st.Target)] {
		return false
	}
	return enabled(scripts, next, owner, t)
}

// badFork adds a fork line that docs/spec.md §3 refuses, or that a second
// fork makes refused: a copy of a fork line (by its thread or another,
// before or after it), or a fork of a thread after a join of it.
func badFork(r *rand.Rand, lines []string, threads int) []string {
	var forks, joins []string
	for _, l := range lines {
		switch {
		case strings.Contains(l, "|fork("):
			forks = append(forks, l)
		case strings.Contains(l, "|join("):
			joins = append(joins, l)
		}
	}
	child := func(l string) string { return l[strings.Index(l, "(")+1 : strings.Index(l, ")")] }
	at := r.IntN(len(lines) + 1)
	var u string
	switch {
	case len(joins) > 0 && r.IntN(2) == 0:
		j := joins[r.IntN(len(joins))]
		u = child(j)
		at = indexOf(lines, j) + 1 + r.IntN(len(lines)-indexOf(lines, j))
	case len(forks) > 0:
		u = child(forks[r.IntN(len(forks))])
	default:
		return lines
	}
	l := fmt.Sprintf("T%d|fork(%s)\n", r.IntN(threads), u)
	return append(lines[:at:at], append([]string{l}, lines[at:]...)...)
}

func indexOf(lines []string, l string) int {
	for i, x := range lines {
		if x == l {
			return i
		}
	}
	return -1
}

// TestForkTraceFeatures: forkTrace's traces (200 seeds) have each shape
// the differential check is for, and no more than forkTraceMaxEvents lines.
func TestForkTraceFeatures(t *testing.T) {
	seen := map[string]int{}
	for seed := uint64(0); seed < 200; seed++ {
		src := forkTrace(rand.New(rand.NewPCG(seed, 25)))
		require.LessOrEqual(t, strings.Count(src, "\n"), forkTraceMaxEvents)
		for _, f := range forkFeatures(src) {
			seen[f]++
		}
	}
	t.Logf("features: %v", seen)
	for _, f := range []string{"second fork by its forker", "second fork by another thread", "fork after a join",
		"join of a thread with no events", "fork inside a transaction", "join inside a transaction",
		"fork by a forked thread", "join by another thread than the forker", "open transaction at the end",
		"thread with only a begin"} {
		require.Positive(t, seen[f], f)
	}
}

// forkFeatures names src's fork and join shapes, line by line.
func forkFeatures(src string) []string {
	open, events := map[string]bool{}, map[string]int{}
	forker, joined := map[string]string{}, map[string]bool{}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(src), "\n") {
		th, op, _ := strings.Cut(l, "|")
		events[th]++
		u := strings.TrimSuffix(op[strings.Index(op, "(")+1:], ")")
		switch {
		case op == "begin" || op == "end":
			open[th] = op == "begin"
		case strings.HasPrefix(op, "fork("):
			out = append(out, forkShapes(th, u, open[th], forker, joined)...)
		case strings.HasPrefix(op, "join("):
			if open[th] {
				out = append(out, "join inside a transaction")
			}
			if events[u] == 0 {
				out = append(out, "join of a thread with no events")
			}
			if f, ok := forker[u]; ok && f != th {
				out = append(out, "join by another thread than the forker")
			}
			joined[u] = true
		}
	}
	for th, o := range open {
		if o {
			out = append(out, "open transaction at the end")
		}
		if events[th] == 1 && o {
			out = append(out, "thread with only a begin")
		}
	}
	return out
}

// forkShapes names the shapes of thread th's fork of u.
func forkShapes(th, u string, open bool, forker map[string]string, joined map[string]bool) []string {
	var out []string
	if f, ok := forker[u]; ok && f == th {
		out = append(out, "second fork by its forker")
	} else if ok {
		out = append(out, "second fork by another thread")
	}
	if joined[u] {
		out = append(out, "fork after a join")
	}
	if open {
		out = append(out, "fork inside a transaction")
	}
	if _, ok := forker[th]; ok {
		out = append(out, "fork by a forked thread")
	}
	if _, ok := forker[u]; !ok {
		forker[u] = th
	}
	return out
}
