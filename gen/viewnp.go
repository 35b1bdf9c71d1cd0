package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

func init() {
	register(Family{
		Name: "view-np",
		Doc: "a random 3-CNF formula of --clauses clauses (default 8) over --vars variables " +
			"(default a quarter of the clauses, at least 3), or the DIMACS file --cnf, as an STD trace " +
			"that is view-serializable exactly when the formula is satisfiable",
		Reads: Reads{Knobs: []Knob{at("vars", 3), at("clauses", 1)}, Seeded: true},
		Trace: true,
		Gen: func(rng *rand.Rand, p Params) string {
			vars, clauses := npSizes(p)
			return ViewNP(RandomCNF(rng, vars, clauses))
		},
		Bytes: func(p Params) float64 {
			vars, clauses := npSizes(p)
			return viewNPBytes(vars, clauses*min(3, vars))
		},
	})
}

// ViewNP reduces 3-SAT to view-serializability of a trace: the trace it
// writes is view-serializable iff f is satisfiable. docs/complexity.md
// gives the proof; in short, in Papadimitriou's polygraph of the trace:
//
//   - A gadget X is four transactions, each alone in its thread: W_X
//     writes the variable v_X, R_X reads that write, K_X writes v_X too
//     (before W_X, in the trace) and the last write of v_X is Z_X's. The
//     polygraph then has the arcs W_X → R_X, W_X, R_X, K_X → Z_X and one
//     choice: K_X → W_X (state 1) or R_X → K_X (state 2).
//   - Every other precedence U → V is a variable of its own that U
//     writes and V then reads: an arc, with no choice.
//   - Each formula variable x_i has a gadget A_i: state 1 is true. Each
//     literal occurrence has a gadget B, state 2 meaning "false": for an
//     occurrence of x_i the arcs W_B → R_A and K_A → K_B, which close a
//     cycle when A is in state 2 and B in state 1; for one of ¬x_i the
//     arcs W_A → K_B and W_B → K_A, which close one when both are in
//     state 1. So a false literal's gadget is in state 2.
//   - A clause's occurrences B1, B2, B3 get the arcs K_B1 → R_B2,
//     K_B2 → R_B3, K_B3 → R_B1, a cycle when all three are in state 2.
//
// So an acyclic choice of states is a satisfying assignment, and a
// satisfying assignment gives one (the proof's order); by Papadimitriou's
// theorem the trace is view-serializable iff one exists.
func ViewNP(f CNF) string {
	b := &viewNPBuilder{}
	masters := make([]gadget, f.Vars+1)
	for i := 1; i <= f.Vars; i++ {
		masters[i] = b.gadget(fmt.Sprintf("x%d", i))
	}
	for j, c := range f.Clauses {
		if len(c) == 0 {
			b.alwaysCycle(j + 1)
			continue
		}
		occ := make([]gadget, len(c))
		for p, l := range c {
			occ[p] = b.gadget(fmt.Sprintf("c%d.%d", j+1, p+1))
			a := masters[abs(l)]
			if l > 0 {
				b.arc(occ[p].w, a.r)
				b.arc(a.k, occ[p].k)
			} else {
				b.arc(a.w, occ[p].k)
				b.arc(occ[p].w, a.k)
			}
		}
		for p := range occ {
			b.arc(occ[p].k, occ[(p+1)%len(occ)].r)
		}
	}
	return b.trace()
}

// gadget is a choice gadget's transactions: the threads of W, R and K
// (Z's write is a unary one of thread "final").
type gadget struct {
	v       string
	w, r, k string
}

// viewNPBuilder collects the transactions' events by phase: each
// transaction is open from its begin, at the start, to its end, at the
// end of the trace, so the phases may order its events freely.
type viewNPBuilder struct {
	threads []string
	choices []string // per gadget: K's write, W's write, R's read of v
	writes  []string // per arc: U's write
	reads   []string // per arc: V's read
	finals  []string // per gadget: Z's last write of v
	arcs    int
}

func (b *viewNPBuilder) gadget(v string) gadget {
	g := gadget{v: v, w: v + ".W", r: v + ".R", k: v + ".K"}
	b.threads = append(b.threads, g.w, g.r, g.k)
	b.choices = append(b.choices, g.k+"|w("+v+")", g.w+"|w("+v+")", g.r+"|r("+v+")")
	b.finals = append(b.finals, "final|w("+v+")")
	return g
}

// arc puts transaction u before v: u writes a variable of their own
// that v then reads.
func (b *viewNPBuilder) arc(u, v string) {
	b.arcs++
	e := fmt.Sprintf("a%d", b.arcs)
	b.writes = append(b.writes, u+"|w("+e+")")
	b.reads = append(b.reads, v+"|r("+e+")")
}

// alwaysCycle stands for an empty clause (unsatisfiable): two
// transactions that read from each other.
func (b *viewNPBuilder) alwaysCycle(j int) {
	u, v := fmt.Sprintf("empty%d.U", j), fmt.Sprintf("empty%d.V", j)
	b.threads = append(b.threads, u, v)
	b.arc(u, v)
	b.arc(v, u)
}

func (b *viewNPBuilder) trace() string {
	var sb strings.Builder
	for _, part := range [][]string{b.begins(), b.choices, b.writes, b.reads, b.finals, b.ends()} {
		for _, line := range part {
			sb.WriteString(line + "\n")
		}
	}
	return sb.String()
}

func (b *viewNPBuilder) begins() []string { return b.each("|begin") }
func (b *viewNPBuilder) ends() []string   { return b.each("|end") }

func (b *viewNPBuilder) each(op string) []string {
	out := make([]string, len(b.threads))
	for i, t := range b.threads {
		out[i] = t + op
	}
	return out
}

func abs(l int) int {
	if l < 0 {
		return -l
	}
	return l
}

// viewNPBytes estimates the trace's length: per gadget about 160 bytes,
// per occurrence four arcs of about 30 bytes besides its gadget.
func viewNPBytes(vars, occurrences int) float64 {
	return float64(vars)*160 + float64(occurrences)*(160+4*30)
}
