package global

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/internal/enginetest"
	"github.com/conc-dev/conc/model"
)

// lockedFamily builds the speed family of the global engine: k straight-line
// threads of n events each over 2 locks. Each transaction does private work
// (that many accesses of a variable no other thread touches), then one critical
// section of lock l = txn mod 2 that reads and writes the shared s_l. Every
// shared access is in a critical section of its lock, one per transaction,
// so the program is serializable; with split, thread 0's last transaction
// splits its critical section in two, and another thread's write can come
// in between: a violation, found only at the end of thread 0.
func lockedFamily(k, n, private int, split bool) *model.Program {
	p := &model.Program{Vars: []string{"s0", "s1"}, Locks: []string{"l0", "l1"}}
	for t := 0; t < k; t++ {
		priv := int32(len(p.Vars))
		p.Vars = append(p.Vars, fmt.Sprintf("p%d", t))
		var evs []model.Event
		ev := func(op model.Op, x int32) { evs = append(evs, model.Event{Op: op, Target: x}) }
		for txn := 0; len(evs) < n; txn++ {
			l := int32(txn % 2)
			last := len(evs)+private+8 > n
			ev(model.OpBegin, -1)
			for i := 0; i < private && len(evs) < n-8; i++ {
				ev([]model.Op{model.OpRead, model.OpWrite}[i%2], priv)
			}
			ev(model.OpAcquire, l)
			ev(model.OpRead, l)
			if last && split && t == 0 {
				ev(model.OpRelease, l)
				ev(model.OpAcquire, l)
			}
			ev(model.OpWrite, l)
			ev(model.OpRelease, l)
			ev(model.OpEnd, -1)
			if last {
				break
			}
		}
		p.Threads = append(p.Threads, &model.Thread{Name: fmt.Sprintf("T%d", t), Auto: enginetest.Straight(evs)})
	}
	return p
}

// lockValidTuples counts the tuples of thread positions in which no two
// threads hold one lock. For lockedFamily (one lock held at a time, no
// nesting) these are exactly the reachable states of the plain product's
// thread part: run every thread to just before its last acquire, then do
// the last acquires, which are of distinct locks. The plain product, which
// adds the monitor's state to each, has at least this many states.
func lockValidTuples(p *model.Program) float64 {
	nl := len(p.Locks)
	dp := make([]float64, 1<<nl) // by the set of locks held so far
	dp[0] = 1
	for _, th := range p.Threads {
		count := make([]float64, 1<<nl) // positions by the set of locks held there
		for _, h := range th.Auto.Held {
			m := 0
			for _, l := range h {
				m |= 1 << l
			}
			count[m]++
		}
		next := make([]float64, 1<<nl)
		for used, ways := range dp {
			for m, c := range count {
				if used&m == 0 {
					next[used|m] += ways * c
				}
			}
		}
		dp = next
	}
	total := 0.0
	for _, w := range dp {
		total += w
	}
	return total
}

// TestLockValidTuplesIsReachableCount checks the plain-product count on
// small members of the family against a search of the thread part alone.
func TestLockValidTuplesIsReachableCount(t *testing.T) {
	for k := 2; k <= 3; k++ {
		p := lockedFamily(k, 36, 5, false)
		require.Equal(t, lockValidTuples(p), float64(reachableTuples(p)), "k=%d", k)
		res := checkGlobal(t, p, engines.Options{}, config{})
		require.Equal(t, engines.Serializable, res.Verdict)
		require.GreaterOrEqual(t, float64(res.Stats.States), lockValidTuples(p))
	}
}

// reachableTuples counts reachable (positions, lock owners) of straight-line
// threads by breadth-first search.
func reachableTuples(p *model.Program) int {
	k := len(p.Threads)
	type st struct {
		pos   [4]int32
		owner [2]int32
	}
	start := st{owner: [2]int32{-1, -1}}
	seen := map[st]bool{start: true}
	work := []st{start}
	for len(work) > 0 {
		s := work[0]
		work = work[1:]
		for t := 0; t < k; t++ {
			out := p.Threads[t].Auto.Out[s.pos[t]]
			if len(out) == 0 {
				continue
			}
			n, ev := s, out[0].Ev
			switch {
			case ev.Op == model.OpAcquire && s.owner[ev.Target] >= 0:
				continue
			case ev.Op == model.OpAcquire:
				n.owner[ev.Target] = int32(t)
			case ev.Op == model.OpRelease:
				n.owner[ev.Target] = -1
			}
			n.pos[t]++
			if !seen[n] {
				seen[n] = true
				work = append(work, n)
			}
		}
	}
	return len(seen)
}

// familyPrivate is the private work per transaction in the speed family:
// with 2,000 events a thread makes about 19 transactions.
const familyPrivate = 100

// TestGlobalScalesOnLockedFamily is the speed claim: on 3 threads of 2,000
// events with 2 locks, the reduced search stores at least 100 times fewer
// states than the plain product has, with the verdicts the family is built
// to have. It logs states and time for 2, 3 and 4 threads (the full
// exploration of 4 threads, about 15 s, is left to the benchmark).
func TestGlobalScalesOnLockedFamily(t *testing.T) {
	t.Parallel()
	for k := 2; k <= 4; k++ {
		for _, split := range []bool{false, true} {
			if k == 4 && !split {
				continue
			}
			p := lockedFamily(k, 2000, familyPrivate, split)
			start := time.Now()
			res := checkGlobal(t, p, engines.Options{}, allReductions)
			elapsed := time.Since(start)
			want := map[bool]engines.Verdict{false: engines.Serializable, true: engines.Violation}[split]
			require.Equal(t, want, res.Verdict, "k=%d split=%v", k, split)
			plain := lockValidTuples(p)
			t.Logf("k=%d split=%-5v %v: %d states, %d events, %v; plain product >= %.3g states (%.0fx)",
				k, split, res.Verdict, res.Stats.States, res.Stats.Events, elapsed.Round(time.Millisecond),
				plain, plain/float64(max(res.Stats.States, 1)))
			require.GreaterOrEqual(t, plain/float64(res.Stats.States), 100.0)
			if split {
				// Thread 0's 2,000 events up to its split section, and the
				// start of one other thread: the witness is shrunk to that.
				t.Logf("witness: %d events", len(res.Witness.Run))
				require.Less(t, len(res.Witness.Run), 2300)
			}
		}
	}
}

// BenchmarkGlobalLockedFamily times the reduced search on the serializable
// family (the whole product is explored), for transactions with 100 and
// with 30 private accesses (about 19 and 50 critical sections a thread).
func BenchmarkGlobalLockedFamily(b *testing.B) {
	for _, private := range []int{100, 30} {
		for k := 2; k <= 4; k++ {
			if private == 30 && k == 4 {
				continue // about 50^4 interleaving points: minutes
			}
			p := lockedFamily(k, 2000, private, false)
			b.Run(fmt.Sprintf("private=%d/threads=%d", private, k), func(b *testing.B) {
				var states int64
				for b.Loop() {
					res, err := decide(context.Background(), p, engines.Options{}, allReductions)
					require.NoError(b, err)
					states = res.Stats.States
				}
				b.ReportMetric(float64(states), "states")
				b.ReportMetric(lockValidTuples(p), "plain-states")
			})
		}
	}
}

// loopedFamily is lockedFamily with every thread made a loop: its last
// edge returns to its start. The threads are regular, not straight-line,
// so the search reads the dense per-state future tables (denseFut) that
// the straight-line family never builds.
func loopedFamily(k, n, private int) *model.Program {
	p := lockedFamily(k, n, private, false)
	for _, th := range p.Threads {
		a := th.Auto
		last := len(a.Out) - 2 // the state before the final End
		a.Out[last][0].To = 0
		a.Out, a.InTxn, a.Held = a.Out[:last+1], a.InTxn[:last+1], a.Held[:last+1]
	}
	return p
}

// BenchmarkGlobalLoopedFamily times the reduced search on loopedFamily,
// whose partial-order reduction asks the dense future tables at every step.
func BenchmarkGlobalLoopedFamily(b *testing.B) {
	for _, c := range []struct{ k, n int }{{2, 2000}, {3, 600}} {
		k, p := c.k, loopedFamily(c.k, c.n, 30)
		require.Equal(b, model.Regular, model.ClassOf(p.Threads[0].Auto))
		b.Run(fmt.Sprintf("threads=%d/events=%d", k, c.n), func(b *testing.B) {
			var states int64
			for b.Loop() {
				res, err := decide(context.Background(), p, engines.Options{}, allReductions)
				require.NoError(b, err)
				require.Equal(b, engines.Serializable, res.Verdict)
				states = res.Stats.States
			}
			b.ReportMetric(float64(states), "states")
		})
	}
}

// BenchmarkFutureTable builds the dense future tables of one looped
// thread and asks each (state, letter) once, lock held and not: the tables
// alone, without the search around them.
func BenchmarkFutureTable(b *testing.B) {
	p := loopedFamily(2, 2000, 30)
	sv, sl := sharedTargets(p)
	fa := newAlphabet(p, sv, sl)
	a := p.Threads[0].Auto
	held := make([]bool, len(p.Locks))
	held[0] = true
	yes := 0
	for b.Loop() {
		d := newFutureTable(fa, a).(*denseFut)
		yes = 0
		for q := range int32(a.NumStates()) {
			for x := range int32(fa.words * 64) {
				if d.has(q, x, nil) {
					yes++
				}
				if d.has(q, x, held) {
					yes++
				}
			}
		}
	}
	require.Positive(b, yes)
	b.ReportMetric(float64(yes), "answers")
}

// orderedFamily is a recorded-like program with docs/spec.md §3's
// orderings: T1 gives one token of s (a channel used as a lock), forks
// k workers, waits for message wg, joins them and reads x0. Each worker
// runs n sections, each a transaction that reads and writes x<j>
// (reads only under a read hold) guarded, by j mod 3, by the mutex l0,
// a write or read hold of the RWMutex l1, or the token s; every tenth
// section a worker hands off to the next (a post the next one waits
// for), and each worker posts wg at its end. Serializable; with split,
// the first worker lets its guard go in the middle of one section.
func orderedFamily(tb testing.TB, k, n int, split bool) *model.Program {
	r := rand.New(rand.NewPCG(uint64(k), uint64(n)))
	main := []string{"give:s"}
	specs := make([]string, k+1)
	for w := 1; w <= k; w++ {
		main = append(main, fmt.Sprintf("fork:T%d", w+1))
		var evs []string
		for i := range n {
			if w > 1 && i%10 == 5 {
				evs = append(evs, fmt.Sprintf("wait:h%d_%d", w-1, i))
			}
			j := r.IntN(3)
			g := [][2]string{{"acq:l0", "rel:l0"}, {"acq:l1", "rel:l1"}, {"take:s", "give:s"}}[j]
			second := "w"
			if j == 1 && r.IntN(2) == 0 {
				g, second = [2]string{"racq:l1", "rrel:l1"}, "r"
			}
			evs = append(evs, g[0], "b", fmt.Sprintf("r:x%d", j))
			if split && w == 1 && i == n/2 {
				evs = append(evs, g[1], g[0])
			}
			evs = append(evs, fmt.Sprintf("%s:x%d", second, j), "e", g[1])
			if w < k && i%10 == 4 {
				evs = append(evs, fmt.Sprintf("post:h%d_%d", w, i+1))
			}
		}
		specs[w] = strings.Join(append(evs, "post:wg"), " ")
	}
	main = append(main, "wait:wg")
	for w := 1; w <= k; w++ {
		main = append(main, fmt.Sprintf("join:T%d", w+1))
	}
	specs[0] = strings.Join(append(main, "b", "r:x0", "e"), " ")
	return enginetest.BuildProg(tb, specs...)
}

// BenchmarkGlobalOrderedFamily times the search on orderedFamily: a
// serializable program (the whole reduced product explored) and its split
// twin (a violation).
func BenchmarkGlobalOrderedFamily(b *testing.B) {
	for _, c := range []struct{ k, n int }{{2, 100}, {2, 300}, {3, 100}} {
		for _, split := range []bool{false, true} {
			p := orderedFamily(b, c.k, c.n, split)
			want := map[bool]engines.Verdict{false: engines.Serializable, true: engines.Violation}[split]
			b.Run(fmt.Sprintf("workers=%d/sections=%d/split=%v", c.k, c.n, split), func(b *testing.B) {
				var states int64
				for b.Loop() {
					res, err := decide(context.Background(), p, engines.Options{}, allReductions)
					require.NoError(b, err)
					require.Equal(b, want, res.Verdict)
					states = res.Stats.States
				}
				b.ReportMetric(float64(states), "states")
			})
		}
	}
}
