package predict

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// nestGen draws traces with nested locking for the linear two-thread
// decision's checks, with shapes randomPairTraces lacks: up to four
// sections deep over up to four locks, re-entrant acquires (the reader
// drops them), nested transactions, forks by any earlier thread and joins
// by any thread that may wait for the joined one (so that an order passes
// through third threads), and prefixes that end inside sections and
// transactions.
type nestGen struct {
	r            *rand.Rand
	locks, vars  int
	depth, width int
}

// nestedTrace is a random trace of threads threads, at most maxEvents
// lines, interleaved by a scheduler that honours re-entrant locks, forks
// and joins.
func nestedTrace(r *rand.Rand, threads, maxEvents int) string {
	g := newNestGen(r)
	scripts := g.scripts(threads, max(3, maxEvents/threads))
	fork := r.IntN(3) != 0
	if fork {
		g.forks(scripts)
	}
	lines := strings.SplitAfter(nestSchedule(r, scripts, fork), "\n")
	if len(lines) > maxEvents {
		lines = lines[:maxEvents]
	}
	if r.IntN(3) == 0 && len(lines) > 4 { // a prefix ending anywhere
		lines = lines[:len(lines)-1-r.IntN(len(lines)/2)]
	}
	return strings.Join(lines, "")
}

// closedNestedTrace is nestedTrace without forks, joins or prefixes: each
// thread's script whole (every section closed), unless the schedule
// deadlocks (then "").
func closedNestedTrace(r *rand.Rand, threads, perThread int) string {
	scripts := newNestGen(r).scripts(threads, perThread)
	src := nestSchedule(r, scripts, false)
	n := 0
	for _, s := range scripts {
		n += len(s)
	}
	if strings.Count(src, "\n") != n {
		return ""
	}
	return src
}

func newNestGen(r *rand.Rand) nestGen {
	return nestGen{r: r, locks: 1 + r.IntN(4), vars: 1 + r.IntN(2), depth: 1 + r.IntN(4), width: 1 + r.IntN(3)}
}

// scripts is one script of at least budget steps per thread.
func (g nestGen) scripts(threads, budget int) [][]step {
	scripts := make([][]step, threads)
	for t := range scripts {
		for len(scripts[t]) < budget {
			scripts[t] = append(scripts[t], g.item()...)
		}
	}
	return scripts
}

// item is a unary access, a lock block or a transaction.
func (g nestGen) item() []step {
	switch g.r.IntN(4) {
	case 0:
		return []step{g.access()}
	case 1:
		return g.block(g.depth, nil)
	}
	return g.txn(2)
}

// txn is a transaction of accesses, lock blocks and (nested: flattened)
// transactions.
func (g nestGen) txn(depth int) []step {
	b := []step{{Op: "begin"}}
	for n := 1 + g.r.IntN(g.width+1); n > 0; n-- {
		switch g.r.IntN(4) {
		case 0:
			b = append(b, g.block(g.depth, nil)...)
		case 1:
			if depth > 1 {
				b = append(b, g.txn(depth-1)...)
				continue
			}
			fallthrough
		default:
			b = append(b, g.access())
		}
	}
	return append(b, step{Op: "end"})
}

// block is acq l; body; rel l with a body of accesses, inner blocks (down
// to depth) and sometimes an acquire of a lock already held (re-entrant).
func (g nestGen) block(depth int, held []int) []step {
	l := g.r.IntN(g.locks)
	if g.r.IntN(5) != 0 { // mostly a lock not held
		for _, h := range held {
			if h == l {
				l = (l + 1 + g.r.IntN(g.locks)) % g.locks
				break
			}
		}
	}
	name := fmt.Sprintf("m%d", l)
	b := []step{{Op: "acq", Target: name}}
	held = append(held[:len(held):len(held)], l)
	for n := g.r.IntN(g.width + 1); n >= 0; n-- {
		switch {
		case depth > 1 && g.r.IntN(3) == 0:
			b = append(b, g.block(depth-1, held)...)
		case g.r.IntN(5) != 0:
			b = append(b, g.access())
		}
	}
	return append(b, step{Op: "rel", Target: name})
}

func (g nestGen) access() step { return randomAccess(g.r, g.vars) }

// forks has each thread u ≥ 1 forked by an earlier thread at a random
// point, and often joined: by its forker after the fork, or at its end by
// any other thread that u cannot be waiting for (a later one, or an
// earlier one that is not u's forker chain), so that joins order threads
// through third ones.
func (g nestGen) forks(scripts [][]step) {
	forker := make([]int, len(scripts))
	for u := 1; u < len(scripts); u++ {
		p := g.r.IntN(u)
		forker[u] = p
		at := g.r.IntN(len(scripts[p]) + 1)
		scripts[p] = insertStep(scripts[p], at, step{Op: "fork", Target: fmt.Sprintf("T%d", u)})
		switch g.r.IntN(3) {
		case 0:
			j := p
			from := at + 1
			scripts[j] = insertStep(scripts[j], from+g.r.IntN(len(scripts[j])-from+1), step{Op: "join", Target: fmt.Sprintf("T%d", u)})
		case 1:
			// Any thread but u may join u at its end; the scheduler
			// drops a trace that deadlocks by stopping there (a prefix).
			j := g.r.IntN(len(scripts))
			if j != u {
				scripts[j] = append(scripts[j], step{Op: "join", Target: fmt.Sprintf("T%d", u)})
			}
		}
	}
}

// nestSchedule interleaves the scripts at random, a lock held by one
// thread at a time but re-entrantly, a thread started by its fork and a
// join waiting for its thread's end; it stops when no thread can move.
func nestSchedule(r *rand.Rand, scripts [][]step, fork bool) string {
	next := make([]int, len(scripts))
	owner, count := map[string]int{}, map[string]int{}
	started := make([]bool, len(scripts))
	for t := range started {
		started[t] = !fork || t == 0
	}
	can := func(t int) bool {
		if !started[t] || next[t] == len(scripts[t]) {
			return false
		}
		st := scripts[t][next[t]]
		switch st.Op {
		case "acq":
			return count[st.Target] == 0 || owner[st.Target] == t
		case "join":
			var u int
			fmt.Sscanf(st.Target, "T%d", &u)
			return started[u] && next[u] == len(scripts[u])
		}
		return true
	}
	var b strings.Builder
	for {
		var ready []int
		for t := range scripts {
			if can(t) {
				ready = append(ready, t)
			}
		}
		if len(ready) == 0 {
			return b.String()
		}
		t := ready[r.IntN(len(ready))]
		st := scripts[t][next[t]]
		next[t]++
		switch st.Op {
		case "acq":
			owner[st.Target] = t
			count[st.Target]++
		case "rel":
			count[st.Target]--
		case "fork":
			var u int
			fmt.Sscanf(st.Target, "T%d", &u)
			started[u] = true
		}
		if st.Target == "" {
			fmt.Fprintf(&b, "T%d|%s\n", t, st.Op)
		} else {
			fmt.Fprintf(&b, "T%d|%s(%s)\n", t, st.Op, st.Target)
		}
	}
}
