package engines

import (
	"github.com/conc-dev/conc/model"
)

// Futures: what a thread may still do. Partial-order reduction needs to know
// whether another thread can ever make a move that interferes with a given
// one; the answer is read off per-state tables of "future letters":
//
//   - r(x), w(x) for every variable two threads touch;
//   - lk(l) for every lock two threads use (acquire or release);
//   - fj(U) for every thread U that some thread forks or joins.
//
// base[q] holds the letters of every edge reachable from q (for a pushdown
// automaton the edges reachable in its graph, pops going to every return
// site: an over-approximation, which is what soundness needs). before[l][q]
// holds those reachable without taking an acquire of l, that acquire left
// out: while a thread that cannot move holds l, nothing past that acquire
// can happen.

// maxRefinedLocks bounds the locks that get a before-table.
const maxRefinedLocks = 16

// futAlphabet numbers the future letters of a program.
type futAlphabet struct {
	words     int
	read      []int32 // per variable, or -1 when private
	write     []int32
	lock      []int32 // per lock, or -1 when one thread uses it
	fj        []int32 // per thread, or -1 when nobody forks or joins it
	refined   []int32 // the locks with before-tables
	refinedOf []int32 // per lock: index into refined, or -1
}

// futTable is one automaton's future letters, as flat word arrays.
type futTable struct {
	base   []uint64
	before [][]uint64 // per refined lock
}

// newFutAlphabet numbers the letters that can make two threads interfere.
func newFutAlphabet(p *model.Program, sharedVars, sharedLocks []bool) *futAlphabet {
	fa := &futAlphabet{}
	n := int32(0)
	next := func(on bool) int32 {
		if !on {
			return -1
		}
		n++
		return n - 1
	}
	for x := range p.Vars {
		fa.read = append(fa.read, next(sharedVars[x]))
		fa.write = append(fa.write, next(sharedVars[x]))
	}
	for l := range p.Locks {
		fa.lock = append(fa.lock, next(sharedLocks[l]))
		fa.refinedOf = append(fa.refinedOf, -1)
		if sharedLocks[l] && len(fa.refined) < maxRefinedLocks {
			fa.refinedOf[l] = int32(len(fa.refined))
			fa.refined = append(fa.refined, int32(l))
		}
	}
	targets := make([]bool, len(p.Threads))
	for _, th := range p.Threads {
		for _, es := range th.Auto.Out {
			for _, e := range es {
				if e.Ev.Op == model.OpFork || e.Ev.Op == model.OpJoin {
					targets[e.Ev.Target] = true
				}
			}
		}
	}
	for u := range p.Threads {
		fa.fj = append(fa.fj, next(targets[u]))
	}
	fa.words = max(1, int(n+63)/64)
	return fa
}

// own is the future letter of one event, or -1.
func (fa *futAlphabet) own(ev model.Event) int32 {
	switch ev.Op {
	case model.OpRead:
		return fa.read[ev.Target]
	case model.OpWrite:
		return fa.write[ev.Target]
	case model.OpAcquire, model.OpRelease:
		return fa.lock[ev.Target]
	case model.OpFork, model.OpJoin:
		return fa.fj[ev.Target]
	}
	return -1
}

// deps appends the future letters that interfere with event ev made by
// another thread: a write for a read, any access for a write, any use of the
// same lock for a lock event. Fork and join interfere with the forked or
// joined thread itself, which the caller checks by thread.
func (fa *futAlphabet) deps(ev model.Event, out []int32) []int32 {
	switch ev.Op {
	case model.OpRead:
		out = append(out, fa.write[ev.Target])
	case model.OpWrite:
		out = append(out, fa.read[ev.Target], fa.write[ev.Target])
	case model.OpAcquire, model.OpRelease:
		out = append(out, fa.lock[ev.Target])
	}
	return out
}

// newFutTable computes a's tables by a fixpoint over its states, in post
// order so that a straight-line automaton settles in one pass.
func newFutTable(fa *futAlphabet, a *model.Automaton) *futTable {
	order := postOrder(a)
	ft := &futTable{base: futFixpoint(fa, a, order, -1)}
	for _, l := range fa.refined {
		ft.before = append(ft.before, futFixpoint(fa, a, order, l))
	}
	return ft
}

// futFixpoint computes fut[q] = ⋃ over edges e of q (except acquires of
// cut, when cut >= 0) of own(e) ∪ fut[e.To], the least solution.
func futFixpoint(fa *futAlphabet, a *model.Automaton, order []int32, cut int32) []uint64 {
	w := fa.words
	fut := make([]uint64, a.NumStates()*w)
	for changed := true; changed; {
		changed = false
		for _, q := range order {
			row := fut[int(q)*w : int(q)*w+w]
			for _, e := range a.Out[q] {
				if cut >= 0 && e.Ev.Op == model.OpAcquire && e.Ev.Target == cut {
					continue
				}
				if x := fa.own(e.Ev); x >= 0 && row[x/64]&(1<<(x%64)) == 0 {
					row[x/64] |= 1 << (x % 64)
					changed = true
				}
				to := fut[int(e.To)*w : int(e.To)*w+w]
				for i := range row {
					if to[i]&^row[i] != 0 {
						row[i] |= to[i]
						changed = true
					}
				}
			}
		}
	}
	return fut
}

// postOrder lists a's states, successors before predecessors where the
// graph allows (an iterative depth-first search from every state).
func postOrder(a *model.Automaton) []int32 {
	n := a.NumStates()
	seen := make([]bool, n)
	order := make([]int32, 0, n)
	type frame struct{ q, i int32 }
	for r := range n {
		if seen[r] {
			continue
		}
		seen[r] = true
		stack := []frame{{int32(r), 0}}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if int(f.i) < len(a.Out[f.q]) {
				to := a.Out[f.q][f.i].To
				f.i++
				if !seen[to] {
					seen[to] = true
					stack = append(stack, frame{to, 0})
				}
				continue
			}
			order = append(order, f.q)
			stack = stack[:len(stack)-1]
		}
	}
	return order
}

// has reports whether letter x is in the row of state q of table tab.
func futHas(tab []uint64, words int, q int32, x int32) bool {
	return tab[int(q)*words+int(x/64)]&(1<<(x%64)) != 0
}
