package predict

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// This file checks, against the brute-force two-thread oracle
// (pairbrute_test.go), the two arguments of docs/predict.md "Toward a
// linear two-thread decision" on traces of two threads without fork or
// join, every critical section closed:
//
//   - the pattern reduction and the grid: a pair has a two-thread cycle
//     iff some pattern (e1 <po e2 in one transaction of one thread, f1 ≤po
//     f2 of the other, e1 D f1, f2 D e2) has a monotone path in the grid
//     of positions that avoids the locks' rectangles, takes f1's step at a
//     column after e1 and e2's step at a row after f2 (any locking);
//   - the lock-set characterisation (nested locking only): a pattern is
//     realisable iff T1 holds no lock somewhere between e1 and e2, or none
//     of the three barriers holds (a lock T1 holds from e1 to e2 that T2
//     holds between f1 and f2; two acquisition-history crossings, one at
//     (after e1, before f1) and one at (before e2, after f2)).
//
// Neither is used by the package yet; they are the design of the linear
// decision, and this test is what keeps the design honest.

// localThread is one thread's events: op ("begin", "end", "acq", "rel",
// "r", "w") and target, and per position x (events executed) the locks
// held, in acquisition order.
type localThread struct {
	ops, targets []string
	txn          []int      // per event: its transaction (accesses only; -1 otherwise)
	held         [][]string // per position 0..n
}

func newLocalThread(ops, targets []string) *localThread {
	th := &localThread{ops: ops, targets: targets, txn: make([]int, len(ops))}
	var stack []string
	th.held = append(th.held, nil)
	id, open := 0, false
	for i, op := range ops {
		th.txn[i] = -1
		switch op {
		case "begin":
			open, id = true, id+1
		case "end":
			open = false
		case "acq":
			stack = append(append([]string(nil), stack...), targets[i])
		case "rel":
			for j := len(stack) - 1; j >= 0; j-- {
				if stack[j] == targets[i] {
					stack = append(append([]string(nil), stack[:j]...), stack[j+1:]...)
					break
				}
			}
		default:
			if !open {
				id++
			}
			th.txn[i] = id
			if !open {
				id++
			}
		}
		th.held = append(th.held, stack)
	}
	return th
}

func holds(set []string, l string) bool {
	for _, m := range set {
		if m == l {
			return true
		}
	}
	return false
}

func meets(a, b []string) bool {
	for _, l := range a {
		if holds(b, l) {
			return true
		}
	}
	return false
}

// localConflict: two accesses of one variable, one a write.
func localConflict(t1 *localThread, i int, t2 *localThread, j int) bool {
	return t1.targets[i] == t2.targets[j] && (t1.ops[i] == "w" || t2.ops[j] == "w")
}

// gridRealisable decides a pattern by a dynamic programme over the grid.
func gridRealisable(t1, t2 *localThread, e1, e2, f1, f2 int) bool {
	n1, n2 := len(t1.ops), len(t2.ops)
	a, c, b, d := e1+1, f1, e2, f2+1
	reach := make([][]bool, n1+1)
	for x := range reach {
		reach[x] = make([]bool, n2+1)
		for y := range reach[x] {
			if meets(t1.held[x], t2.held[y]) || x < a && y > c {
				continue
			}
			reach[x][y] = x == 0 && y == 0 || x > 0 && reach[x-1][y] || y > 0 && reach[x][y-1]
		}
	}
	for y := d; y <= n2; y++ {
		if reach[b][y] {
			return true
		}
	}
	return false
}

// acquiredIn is the locks t acquires at events from..to-1.
func (th *localThread) acquiredIn(from, to int) []string {
	var out []string
	for i := max(from, 0); i < to && i < len(th.ops); i++ {
		if th.ops[i] == "acq" {
			out = append(out, th.targets[i])
		}
	}
	return out
}

// sectionOf is the events [acq, rel] of the section of l held at x.
func (th *localThread) sectionOf(x int, l string) (acq, rel int) {
	acq, rel = -1, len(th.ops)
	for i := x - 1; i >= 0; i-- {
		if th.ops[i] == "acq" && th.targets[i] == l {
			acq = i
			break
		}
	}
	for i := x; i < len(th.ops); i++ {
		if th.ops[i] == "rel" && th.targets[i] == l {
			rel = i
			break
		}
	}
	return acq, rel
}

// ah is the acquisition history at x of a lock l held there: the locks
// acquired since l was; fah the locks acquired from x on before l's release.
func (th *localThread) ah(x int, l string) []string {
	acq, _ := th.sectionOf(x, l)
	return th.acquiredIn(acq+1, x)
}

func (th *localThread) fah(x int, l string) []string {
	_, rel := th.sectionOf(x, l)
	return th.acquiredIn(x, rel)
}

// locksetRealisable decides a pattern by the lock-set characterisation.
func locksetRealisable(t1, t2 *localThread, e1, e2, f1, f2 int) bool {
	a, c, b, d := e1+1, f1, e2, f2+1
	var win []string // locks T1 holds at every position of [a, b]
	for x := a; x <= b; x++ {
		if len(t1.held[x]) == 0 {
			return true // a lock-free point between e1 and e2
		}
	}
	for _, l := range t1.held[a] {
		all := true
		for x := a; x <= b; x++ {
			all = all && holds(t1.held[x], l)
		}
		if all {
			win = append(win, l)
		}
	}
	for y := c; y <= d; y++ {
		if meets(win, t2.held[y]) {
			return false // a lock T1 holds from e1 to e2, T2 between f1 and f2
		}
	}
	for _, k2 := range win {
		for _, k1 := range t1.ah(a, k2) {
			if holds(t2.held[c], k1) && holds(t2.ah(c, k1), k2) {
				return false // crossing at (after e1, before f1)
			}
		}
	}
	for _, k1 := range win {
		for _, k2 := range t1.ah(b, k1) {
			if holds(t1.held[b], k2) && holds(t2.held[d], k2) && holds(t2.fah(d, k2), k1) {
				return false // crossing at (before e2, after f2)
			}
		}
	}
	return true
}

// rect is a forbidden rectangle of the grid, positions inclusive.
type rect struct{ xlo, xhi, ylo, yhi int }

// sections are a thread's critical sections of l as position intervals
// (held after the acquire, up to the release).
func (th *localThread) sections(l string) [][2]int {
	var out [][2]int
	for i, op := range th.ops {
		if op == "acq" && th.targets[i] == l {
			_, rel := th.sectionOf(i+1, l)
			out = append(out, [2]int{i + 1, rel})
		}
	}
	return out
}

// barrier reports a chain of forbidden rectangles from Z1 (f1 before e1)
// to Z2 (e2 before f2) with at most maxLocks lock rectangles (-1: any):
// R' follows R when it starts no later than one column after R ends and
// reaches up to at least one row below R's bottom. Columns past e2 are
// cut off.
func barrier(t1, t2 *localThread, e1, e2, f1, f2, maxLocks int) bool {
	a, c, b, d := e1+1, f1, e2, f2+1
	big := len(t2.ops) + 1
	z1, z2 := rect{0, a - 1, c + 1, big}, rect{b + 1, b + 1, 0, d - 1}
	var rs []rect
	locks := map[string]bool{}
	for i, op := range t1.ops {
		if op == "acq" {
			locks[t1.targets[i]] = true
		}
	}
	for l := range locks {
		for _, i := range t1.sections(l) {
			for _, j := range t2.sections(l) {
				if i[0] <= b+1 {
					rs = append(rs, rect{i[0], min(i[1], b+1), j[0], j[1]})
				}
			}
		}
	}
	follows := func(r, q rect) bool { return q.xlo <= r.xhi+1 && q.yhi >= r.ylo-1 }
	frontier, depth := []rect{z1}, 0
	seen := map[rect]bool{}
	for len(frontier) > 0 {
		var next []rect
		for _, r := range frontier {
			if follows(r, z2) {
				return true
			}
			if maxLocks >= 0 && depth >= maxLocks {
				continue
			}
			for _, q := range rs {
				if !seen[q] && follows(r, q) {
					seen[q] = true
					next = append(next, q)
				}
			}
		}
		frontier, depth = next, depth+1
	}
	return false
}

// pairCycleBy reports a realisable pattern with T1's transaction
// interrupted, by the given decision.
func pairCycleBy(t1, t2 *localThread, realisable func(t1, t2 *localThread, e1, e2, f1, f2 int) bool) bool {
	for e1 := range t1.ops {
		for e2 := e1 + 1; e2 < len(t1.ops); e2++ {
			if t1.txn[e1] < 0 || t1.txn[e1] != t1.txn[e2] {
				continue
			}
			for f1 := range t2.ops {
				if t2.txn[f1] < 0 || !localConflict(t1, e1, t2, f1) {
					continue
				}
				for f2 := range t2.ops {
					if f2 < f1 && t2.txn[f2] != t2.txn[f1] {
						continue
					}
					if t2.txn[f2] >= 0 && localConflict(t1, e2, t2, f2) && realisable(t1, t2, e1, e2, f1, f2) {
						return true
					}
				}
			}
		}
	}
	return false
}

// localScript is a random thread: top-level transactions and lock blocks,
// locks nested (or, with crossed, sometimes released out of order), every
// section closed.
func localScript(r *rand.Rand, locks, vars int, crossed bool) (ops, targets []string) {
	add := func(op, target string) { ops, targets = append(ops, op), append(targets, target) }
	var body func(depth int, inTxn bool)
	body = func(depth int, inTxn bool) {
		for n := 1 + r.IntN(2+depth%2); n > 0; n-- {
			switch k := r.IntN(6); {
			case k < 2 && depth < 3:
				l, m := fmt.Sprintf("l%d", r.IntN(locks)), fmt.Sprintf("l%d", r.IntN(locks))
				if crossed && l != m && r.IntN(3) == 0 {
					add("acq", l)
					add("acq", m)
					add("rel", l) // released out of order
					body(depth+1, inTxn)
					add("rel", m)
					continue
				}
				add("acq", l)
				body(depth+1, inTxn)
				add("rel", l)
			case k >= 2 && k <= 3 && !inTxn:
				add("begin", "")
				body(depth, true)
				add("end", "")
			default:
				op := "r"
				if r.IntN(2) == 0 {
					op = "w"
				}
				add(op, fmt.Sprintf("x%d", r.IntN(vars)))
			}
		}
	}
	body(0, false)
	return ops, targets
}

// reentrant reports a thread that acquires a lock it holds (the oracle
// and the trace reader drop such acquires; the grid here does not).
func reentrant(ops, targets []string) bool {
	held := map[string]int{}
	for i, op := range ops {
		switch op {
		case "acq":
			if held[targets[i]]++; held[targets[i]] > 1 {
				return true
			}
		case "rel":
			held[targets[i]]--
		}
	}
	return false
}

func localSource(names []string, scripts [][2][]string) string {
	var b strings.Builder
	for t, s := range scripts {
		for i, op := range s[0] {
			if s[1][i] == "" {
				fmt.Fprintf(&b, "%s|%s\n", names[t], op)
			} else {
				fmt.Fprintf(&b, "%s|%s(%s)\n", names[t], op, s[1][i])
			}
		}
	}
	return b.String()
}

// TestPairLocalDesign: the grid decides every pair as the oracle does
// (nested and crossed locking), and on nested locking the lock-set
// characterisation decides every pattern as the grid does.
func TestPairLocalDesign(t *testing.T) {
	n := testflag.N(600, 8000)
	count := map[string]int{}
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 77))
		crossed := r.IntN(4) == 0
		var scripts [][2][]string
		var th []*localThread
		for range 2 {
			ops, targets := localScript(r, 1+r.IntN(3), 1+r.IntN(2), crossed)
			scripts = append(scripts, [2][]string{ops, targets})
			th = append(th, newLocalThread(ops, targets))
		}
		if reentrant(scripts[0][0], scripts[0][1]) || reentrant(scripts[1][0], scripts[1][1]) ||
			len(scripts[0][0])+len(scripts[1][0]) > 24 {
			continue
		}
		src := localSource([]string{"T0", "T1"}, scripts)
		want := twoThreadCycles(t, src, false)[[2]string{"T0", "T1"}]
		grid := pairCycleBy(th[0], th[1], gridRealisable) || pairCycleBy(th[1], th[0], gridRealisable)
		require.Equal(t, want, grid, "seed %d: the grid against the oracle\n%s", seed, src)
		count[fmt.Sprintf("cycle %v", want)]++
		for _, ord := range [][2]int{{0, 1}, {1, 0}} {
			checkEveryPattern(t, th[ord[0]], th[ord[1]], !crossed, seed, src, count)
		}
	}
	t.Logf("%v", count)
	used := count["cycle true"] + count["cycle false"]
	require.Greater(t, used, n/4)
	require.Greater(t, count["cycle true"], used/6)
	require.Greater(t, count["cycle false"], used/6)
	require.Greater(t, count["blocked"], used/8)
}

// checkEveryPattern compares the two decisions on every pattern.
func checkEveryPattern(t *testing.T, t1, t2 *localThread, nested bool, seed uint64, src string, count map[string]int) {
	for e1 := range t1.ops {
		for e2 := e1 + 1; e2 < len(t1.ops); e2++ {
			if t1.txn[e1] < 0 || t1.txn[e1] != t1.txn[e2] {
				continue
			}
			for f1 := range t2.ops {
				for f2 := range t2.ops {
					if t2.txn[f1] < 0 || t2.txn[f2] < 0 || !localConflict(t1, e1, t2, f1) || !localConflict(t1, e2, t2, f2) ||
						f2 < f1 && t2.txn[f2] != t2.txn[f1] {
						continue
					}
					g := gridRealisable(t1, t2, e1, e2, f1, f2)
					require.Equal(t, g, !barrier(t1, t2, e1, e2, f1, f2, -1),
						"seed %d: pattern e1=%d e2=%d f1=%d f2=%d (grid %v): the barrier\n%s", seed, e1, e2, f1, f2, g, src)
					if !nested {
						continue
					}
					require.Equal(t, g, !barrier(t1, t2, e1, e2, f1, f2, 2),
						"seed %d: pattern e1=%d e2=%d f1=%d f2=%d (grid %v): chains of two\n%s", seed, e1, e2, f1, f2, g, src)
					if f1 <= f2 {
						require.Equal(t, g, locksetRealisable(t1, t2, e1, e2, f1, f2),
							"seed %d: pattern e1=%d e2=%d f1=%d f2=%d (grid %v): lock sets\n%s", seed, e1, e2, f1, f2, g, src)
					}
					if !g {
						count["blocked"]++
					}
				}
			}
		}
	}
}
