package predict

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// pairTraceMaxEvents bounds the random traces of the two-thread oracle's
// checks, so that its exhaustive search stays small: over 1,000 traces of
// randomPairTraces, both semantics, a median of 124 states, 8,400 at the
// 99th percentile, 25,000 at most (about 1.5 ms a trace on 2 cores).
const pairTraceMaxEvents = 14

// randomPairTraces returns a small random STD trace for the two-thread
// question: 2 to 4 threads, at most pairTraceMaxEvents events, with
// variety the larger generators lack at this size: critical sections
// nested one or two deep (sometimes released out of order), unary and
// multi-access transactions (sometimes nested, or holding only a lock
// block), lock blocks outside transactions, and fork trees (any earlier
// thread may fork a later one, inside a transaction or not) with joins by
// the forker or another thread. TestRandomPairTraces checks that each
// feature occurs.
func randomPairTraces(r *rand.Rand) string {
	return smallPairTrace(r, 2+r.IntN(3), pairTraceMaxEvents)
}

// pairGen draws the scripts of smallPairTrace.
type pairGen struct {
	r           *rand.Rand
	vars, locks int
}

// smallPairTrace draws one script per thread, about maxEvents/threads
// events each, interleaves them with schedule (which respects locks, fork
// and join) and keeps the first maxEvents lines: a prefix of a trace is a
// trace (§3 allows open transactions and held locks at the end).
func smallPairTrace(r *rand.Rand, threads, maxEvents int) string {
	g := pairGen{r: r, vars: 1 + r.IntN(3), locks: r.IntN(3)}
	return g.trace(threads, maxEvents)
}

// trace is smallPairTrace with g's variables and locks.
func (g pairGen) trace(threads, maxEvents int) string {
	r := g.r
	budget := max(2, maxEvents/threads)
	scripts := make([][]step, threads)
	for t := range scripts {
		for len(scripts[t]) < budget {
			scripts[t] = append(scripts[t], g.item()...)
		}
	}
	fork := r.IntN(2) == 0
	if fork {
		g.forkTree(scripts)
	} else if threads > 1 && r.IntN(3) == 0 {
		u := 1 + r.IntN(threads-1)
		g.insertJoin(scripts, r.IntN(u), u, 0)
	}
	lines := strings.SplitAfter(schedule(r, scripts, fork), "\n")
	if len(lines) > maxEvents {
		lines = lines[:maxEvents]
	}
	return strings.Join(lines, "")
}

// item is one top-level script item: a unary access, a transaction, or a
// lock block outside any transaction.
func (g pairGen) item() []step {
	switch g.r.IntN(4) {
	case 0:
		return []step{g.access()}
	case 1:
		if g.locks > 0 {
			return g.lockBlock(1, -1)
		}
	}
	return g.txn()
}

func (g pairGen) txn() []step {
	b := []step{{Op: "begin"}}
	for n := 1 + g.r.IntN(3); n > 0; n-- {
		switch g.r.IntN(5) {
		case 0:
			if g.locks > 0 {
				b = append(b, g.lockBlock(1, -1)...)
				continue
			}
		case 1:
			b = append(b, step{Op: "begin"}, g.access(), step{Op: "end"}) // flattened
			continue
		}
		b = append(b, g.access())
	}
	return append(b, step{Op: "end"})
}

// lockBlock is acq l; body; rel l, the body holding accesses and at depth
// 1 perhaps a block of another lock, whose release sometimes comes after
// l's. (No re-entrant acquires: schedule would block on them.)
func (g pairGen) lockBlock(depth, outer int) []step {
	l := g.r.IntN(g.locks)
	if depth == 2 {
		l = (outer + 1 + g.r.IntN(g.locks-1)) % g.locks
	}
	b := []step{{Op: "acq", Target: fmt.Sprintf("m%d", l)}}
	var tail []step
	for n := g.r.IntN(3); n >= 0; n-- {
		if depth == 1 && g.locks > 1 && g.r.IntN(3) == 0 {
			inner := g.lockBlock(2, l)
			if g.r.IntN(3) == 0 {
				b = append(b, inner[:len(inner)-1]...)
				tail = append(tail, inner[len(inner)-1])
				continue
			}
			b = append(b, inner...)
			continue
		}
		if g.r.IntN(4) != 0 {
			b = append(b, g.access())
		}
	}
	b = append(b, step{Op: "rel", Target: fmt.Sprintf("m%d", l)})
	return append(b, tail...)
}

func (g pairGen) access() step { return randomAccess(g.r, g.vars) }

// randomAccess is a read or a write, evenly, of one of vars variables.
func randomAccess(r *rand.Rand, vars int) step {
	op := "r"
	if r.IntN(2) == 0 {
		op = "w"
	}
	return step{Op: op, Target: fmt.Sprintf("x%d", r.IntN(vars))}
}

// forkTree has each thread u ≥ 1 forked by a random earlier thread, at a
// random point of its script, and sometimes joined later by the forker or
// by another earlier thread (at its end).
func (g pairGen) forkTree(scripts [][]step) {
	for u := 1; u < len(scripts); u++ {
		p := g.r.IntN(u)
		at := g.r.IntN(len(scripts[p]) + 1)
		scripts[p] = insertStep(scripts[p], at, step{Op: "fork", Target: fmt.Sprintf("T%d", u)})
		if g.r.IntN(2) == 0 {
			j, from := p, at+1
			if g.r.IntN(3) == 0 {
				// Another thread joins at its end, so that no thread waits
				// for u before forking u's forker.
				j = g.r.IntN(u)
				from = len(scripts[j])
			}
			g.insertJoin(scripts, j, u, from)
		}
	}
}

// insertJoin puts join(Tu) into thread j's script at or after from.
func (g pairGen) insertJoin(scripts [][]step, j, u, from int) {
	at := from + g.r.IntN(len(scripts[j])-from+1)
	scripts[j] = insertStep(scripts[j], at, step{Op: "join", Target: fmt.Sprintf("T%d", u)})
}

func insertStep(s []step, at int, st step) []step {
	return append(s[:at:at], append([]step{st}, s[at:]...)...)
}
