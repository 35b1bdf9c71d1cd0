package gen

import "fmt"

// kind is a statement kind the random generator may pick.
type kind int

const (
	kAccess kind = iota
	kAtomic
	kSync
	kLoop
	kChoose
	kCall
)

// weights of the kinds, where they are allowed.
var weights = [...]int{kAccess: 5, kAtomic: 2, kSync: 2, kLoop: 1, kChoose: 1, kCall: 1}

// stmts writes statements making budget accesses (statically) in scope sc.
func (g *randGen) stmts(sc scope, budget int) []*node {
	var out []*node
	for budget > 0 {
		ns, used := g.stmt(sc, budget)
		out = append(out, ns...)
		budget -= used
	}
	return out
}

// stmt writes one statement (an acquire/release pair is written as its
// lines, hence the slice) and returns how much budget it used, at least 1.
func (g *randGen) stmt(sc scope, budget int) ([]*node, int) {
	switch g.pick(sc) {
	case kAtomic:
		return g.atomic(sc, budget)
	case kSync:
		return g.sync(sc, budget)
	case kLoop:
		return g.loop(sc, budget)
	case kChoose:
		return g.choose(sc, budget)
	case kCall:
		return g.call(sc), 1
	}
	if !sc.inTxn && !g.p.Unary {
		return g.atomic(sc, budget)
	}
	return []*node{g.access()}, 1
}

// pick draws a kind among those allowed at sc.
func (g *randGen) pick(sc scope) kind {
	allowed := [len(weights)]bool{kAccess: true}
	deep := sc.depth >= maxNest
	allowed[kAtomic] = !deep && (!sc.inTxn || g.p.Nested)
	allowed[kSync] = !deep && g.p.Sync && g.freeLock(sc) >= 0
	allowed[kLoop] = !deep && g.p.Loops
	allowed[kChoose] = !deep && g.p.Choice
	allowed[kCall] = g.procs > 0 && sc.noneHeld() && (!sc.inTxn || g.p.Nested)
	total := 0
	for k, ok := range allowed {
		if ok {
			total += weights[k]
		}
	}
	r := g.rng.IntN(total)
	for k, ok := range allowed {
		if ok {
			if r < weights[k] {
				return kind(k)
			}
			r -= weights[k]
		}
	}
	return kAccess
}

func (g *randGen) access() *node {
	op := "read"
	if g.rng.IntN(2) == 0 {
		op = "write"
	}
	return leaf(fmt.Sprintf("%s x%d", op, g.rng.IntN(g.p.Vars)))
}

// size draws a block's budget: 1..min(limit, budget).
func (g *randGen) size(limit, budget int) int {
	return 1 + g.rng.IntN(max(1, min(limit, budget)))
}

func (g *randGen) atomic(sc scope, budget int) ([]*node, int) {
	k := g.size(g.p.TxnLen, budget)
	in := sc.enter()
	in.inTxn = true
	return []*node{block("atomic", g.stmts(in, k))}, k
}

// freeLock picks a lock that sc does not hold, or -1.
func (g *randGen) freeLock(sc scope) int {
	var free []int
	for l, h := range sc.held {
		if !h {
			free = append(free, l)
		}
	}
	if len(free) == 0 {
		return -1
	}
	return free[g.rng.IntN(len(free))]
}

// sync writes a critical section: a sync block, or an acquire/release pair
// around statements of the same block (so the lock is released on every
// path before the block ends).
func (g *randGen) sync(sc scope, budget int) ([]*node, int) {
	l := g.freeLock(sc)
	k := g.size(g.p.TxnLen, budget)
	in := sc.enter()
	in.held[l] = true
	body := g.stmts(in, k)
	if g.rng.IntN(2) == 0 {
		return []*node{block(fmt.Sprintf("sync m%d", l), body)}, k
	}
	out := append([]*node{leaf(fmt.Sprintf("acquire m%d", l))}, body...)
	return append(out, leaf(fmt.Sprintf("release m%d", l))), k
}

// loop writes loop (any number of iterations) or repeat 2..3; a repeat uses
// its unrolled size from the budget, a loop its text's.
func (g *randGen) loop(sc scope, budget int) ([]*node, int) {
	k := g.size(2, budget)
	body := g.stmts(sc.enter(), k)
	if r := 2 + g.rng.IntN(2); g.rng.IntN(2) == 0 && k*r <= budget {
		return []*node{block(fmt.Sprintf("repeat %d", r), body)}, k * r
	}
	return []*node{block("loop", body)}, k
}

// choose writes two or three branches of up to k accesses each; an empty
// branch is skip.
func (g *randGen) choose(sc scope, budget int) ([]*node, int) {
	k := g.size(g.p.TxnLen, budget)
	n := 2
	if g.rng.IntN(4) == 0 {
		n = 3
	}
	branches := make([][]*node, n)
	for i := range branches {
		branches[i] = g.stmts(sc.enter(), g.rng.IntN(k+1))
		if len(branches[i]) == 0 {
			branches[i] = []*node{leaf("skip")}
		}
	}
	return []*node{block("choose", branches...)}, k
}

// call calls a random procedure; inside a procedure the call is guarded by
// a choose so that the recursion may stop.
func (g *randGen) call(sc scope) []*node {
	c := leaf(fmt.Sprintf("call P%d", g.rng.IntN(g.procs)))
	if sc.inProc {
		return []*node{block("choose", []*node{leaf("skip")}, []*node{c})}
	}
	return []*node{c}
}
