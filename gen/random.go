package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/conc-dev/conc/internal/progtree"
)

// Params size a random program and switch on the constructs it may use.
// Zero sizes take small defaults (two threads of four accesses over two
// variables, transactions of up to two accesses, one lock under Sync).
type Params struct {
	Threads         int // number of threads
	EventsPerThread int // accesses each thread's text makes (statically)
	Vars            int // shared variables x0, x1, ...
	Locks           int // locks m0, m1, ... (used only under Sync)
	TxnLen          int // most accesses an atomic block holds (statically)

	Loops     bool // loop and repeat: regular programs
	Choice    bool // choose
	Recursion bool // procedures with call cycles: recursive programs
	Nested    bool // atomic blocks inside atomic blocks
	Unary     bool // accesses outside atomic blocks
	Sync      bool // sync blocks and acquire/release pairs
	Identical bool // the last two threads are one declaration W[2]

	// Sizes and switches of the scaling and reduction families (conc gen);
	// Random ignores them. Each family's doc says which it reads.
	Depth   int  // deep: the stack depth a violation needs
	Twin    bool // chain: the serializable twin
	M       int  // w1: the least length of the common word
	States  int  // w1: states of each random DFA
	Letters int  // w1: letters of the random DFAs' alphabet
	Clauses int  // np: clauses of the random 3-CNF formula (Vars: its variables)
}

// withDefaults fills zero sizes.
func (p Params) withDefaults() Params {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&p.Threads, 2)
	def(&p.EventsPerThread, 4)
	def(&p.Vars, 2)
	def(&p.TxnLen, 2)
	if p.Sync {
		def(&p.Locks, 1)
	}
	return p
}

// String lists p as key=value words, for a program's header comment.
func (p Params) String() string {
	s := fmt.Sprintf("threads=%d events=%d vars=%d locks=%d txn=%d",
		p.Threads, p.EventsPerThread, p.Vars, p.Locks, p.TxnLen)
	for _, sw := range []struct {
		on   bool
		name string
	}{{p.Loops, "loops"}, {p.Choice, "choice"}, {p.Recursion, "recursion"},
		{p.Nested, "nested"}, {p.Unary, "unary"}, {p.Sync, "sync"}, {p.Identical, "identical"}} {
		if sw.on {
			s += " " + sw.name
		}
	}
	return s
}

// maxNest bounds how deeply blocks nest, so programs stay readable.
const maxNest = 3

// Random writes a random program drawn with rng under p: the family that
// differential tests run against brute. Threads T0, T1, ... each make
// EventsPerThread accesses of variables x0, x1, ... grouped into atomic
// blocks of up to TxnLen accesses; each switch adds its construct at random
// places. Under Recursion, procedures P0, P1, ... call each other in a cycle
// (behind a choose, so that every call may also stop) and T0 calls P0. Under
// Identical the last two threads are W[0] and W[1] of one declaration,
// which share an automaton (engines may exploit that symmetry).
func Random(rng *rand.Rand, p Params) string {
	p = p.withDefaults()
	g := &randGen{rng: rng, p: p}
	pr := progtree.NewPrinter("gen random: " + p.String())
	pr.Add(leaf("vars " + names("x", p.Vars)))
	if p.Sync {
		pr.Add(leaf("locks " + names("m", p.Locks)))
	}
	if p.Recursion {
		g.procs = 1 + rng.IntN(2)
		for i := 0; i < g.procs; i++ {
			pr.Add(block(fmt.Sprintf("proc P%d", i), g.procBody(i)))
		}
	}
	decls := p.Threads
	if p.Identical && p.Threads >= 2 {
		decls-- // the last declaration makes two threads
	}
	for t := 0; t < decls; t++ {
		body := g.stmts(scope{held: make([]bool, p.Locks)}, p.EventsPerThread)
		if t == 0 && p.Recursion {
			body = insertAt(rng, body, leaf("call P0"))
		}
		name := fmt.Sprintf("thread T%d", t)
		if decls < p.Threads && t == decls-1 {
			name = "thread W[2]"
		}
		pr.Add(block(name, body)) // printed now: one thread's nodes at a time
	}
	return pr.String()
}

// names lists prefix0, prefix1, ... as a declaration's name list.
func names(prefix string, n int) string {
	ns := make([]string, n)
	for i := range ns {
		ns[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return strings.Join(ns, ", ")
}

// insertAt puts n at a random top-level position of body where no lock is
// held (outside every acquire/release pair) and no transaction is open.
func insertAt(rng *rand.Rand, body []*node, n *node) []*node {
	var free []int
	held := 0
	for i := 0; i <= len(body); i++ {
		if held == 0 {
			free = append(free, i)
		}
		if i < len(body) {
			held += lockDelta(body[i])
		}
	}
	i := free[rng.IntN(len(free))]
	out := append([]*node{}, body[:i]...)
	out = append(out, n)
	return append(out, body[i:]...)
}

// lockDelta is how a top-level line changes the number of held locks.
func lockDelta(n *node) int {
	switch {
	case n.IsBlock():
		return 0
	case strings.HasPrefix(n.Head, "acquire "):
		return 1
	case strings.HasPrefix(n.Head, "release "):
		return -1
	}
	return 0
}

type randGen struct {
	rng   *rand.Rand
	p     Params
	procs int
}

// scope is what the generator knows at a program point: whether a
// transaction is open, which locks are held, how deep blocks nest, and
// whether it is writing a procedure.
type scope struct {
	inTxn  bool
	held   []bool
	depth  int
	inProc bool
}

func (s scope) enter() scope {
	s.depth++
	s.held = append([]bool(nil), s.held...)
	return s
}

func (s scope) noneHeld() bool {
	for _, h := range s.held {
		if h {
			return false
		}
	}
	return true
}

// procBody writes procedure i: random statements and one guarded call of
// the next procedure (of itself when there is one), so the calls form a
// cycle and the program is recursive.
func (g *randGen) procBody(i int) []*node {
	sc := scope{held: make([]bool, g.p.Locks), inProc: true}
	body := g.stmts(sc, max(1, g.p.EventsPerThread/2))
	call := leaf(fmt.Sprintf("call P%d", (i+1)%g.procs))
	return insertAt(g.rng, body, block("choose", []*node{leaf("skip")}, []*node{call}))
}
