package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

func init() {
	register(Family{
		Name: "np",
		Doc: "a random 3-CNF formula of --clauses clauses (default 8) over --vars variables " +
			"(default a quarter of the clauses, at least 3), or the DIMACS file --cnf, as a lock-free " +
			"straight-line program that violates atomicity exactly when the formula is satisfiable (Theorem 2)",
		Reads: Reads{Knobs: []Knob{at("vars", 3), at("clauses", 1)}, Seeded: true},
		Gen: func(rng *rand.Rand, p Params) string {
			vars, clauses := npSizes(p)
			return NP(RandomCNF(rng, vars, clauses))
		},
		Bytes: func(p Params) float64 {
			vars, clauses := npSizes(p)
			return npBytes(vars, clauses, clauses*min(3, vars))
		},
	})
}

// npSizes are the np family's formula sizes: 8 clauses unless Clauses says
// otherwise, over Vars variables, by default a quarter of the clauses but
// at least 3 (so that each clause has three distinct variables; about four
// clauses a variable is where random 3-CNF formulas turn unsatisfiable).
func npSizes(p Params) (vars, clauses int) {
	clauses = orDefault(p.Clauses, 8)
	return orDefault(p.Vars, max(3, clauses/4)), clauses
}

// NP reduces 3-SAT to non-serializability of lock-free straight-line
// programs (the hardness half of Theorem 2): the program it writes has a
// non-serializable run iff f is satisfiable. docs/complexity.md gives the
// proof; in short:
//
// By Lemma 2 a violation can be taken normal: one thread S is stopped inside
// a transaction between events e and f, some other threads run serially and
// completely, each entered by a conflict with the previous one and left, from
// the same or a later transaction, by a conflict with the next, and the last
// one conflicts with f. So a violation is a path from e to f that visits each
// other thread at most once and moves forward through each.
//
// Every transaction but S's is a single access, so only S can be
// interrupted. Variables are "junctions": S writes g0 (e) and reads hm (f);
// a thread of the gadget reads a junction in one transaction and writes the
// next junction in a later one, so a path crosses it forwards only.
//
//   - variable phase: for each variable x_i two routes lead from g(i-1) to
//     gi. The true route passes through the thread of every occurrence of
//     the literal not-x_i, the false route through those of x_i (a bridge
//     thread when there are none). Crossing the variable phase therefore
//     uses up the occurrence threads of every literal the assignment
//     falsifies.
//   - clause phase: gn is h0; clause c_j leads from h(j-1) to hj through the
//     thread of any one of its literal occurrences.
//
// An occurrence thread makes its clause step (read h(j-1); write hj) before
// its variable step, so no path climbs from the variable phase into the
// clause phase except through gn. A path from g0 to hm thus first crosses
// the variable phase completely (choosing an assignment) and ends with a
// clause pass that uses, for each clause, an occurrence thread not used
// before, that is, a true literal. Conversely a satisfying assignment gives
// such a path. The program has 1 + (occurrences) + (at most 2 Vars) threads,
// each of at most four events (2 threads for the empty formula).
func NP(f CNF) string {
	b := npBuilder{f: f, threads: map[string][]string{}}
	b.build()
	var top []*node
	top = append(top, leaf("vars "+strings.Join(b.vars, ", ")))
	for _, name := range b.order {
		var body []*node
		for _, acc := range b.threads[name] {
			body = append(body, block("atomic", []*node{leaf(acc)}))
		}
		if name == "S" {
			body = []*node{block("atomic", []*node{leaf(b.threads[name][0]), leaf(b.threads[name][1])})}
		}
		top = append(top, block("thread "+name, body))
	}
	head := fmt.Sprintf("gen np: violates atomicity iff this formula is satisfiable:\n%s", f)
	return render(strings.TrimRight(head, "\n"), top)
}

// npBuilder collects the gadget's variables and each thread's accesses in
// program order (one access a transaction, except S's two).
type npBuilder struct {
	f       CNF
	vars    []string
	order   []string
	threads map[string][]string
}

func (b *npBuilder) thread(name string, accs ...string) {
	if _, ok := b.threads[name]; !ok {
		b.order = append(b.order, name)
	}
	b.threads[name] = append(b.threads[name], accs...)
}

func (b *npBuilder) junction(name string) string {
	b.vars = append(b.vars, name)
	return name
}

// g names the variable-phase junction after variable i; gn is also h0.
func (b *npBuilder) g(i int) string { return fmt.Sprintf("g%d", i) }

// h names the clause-phase junction after clause j (h0 is gn).
func (b *npBuilder) h(j int) string {
	if j == 0 {
		return b.g(b.f.Vars)
	}
	return fmt.Sprintf("h%d", j)
}

// occName names the thread of the p-th literal of clause j.
func (b *npBuilder) occName(j, p int) string {
	l := b.f.Clauses[j][p]
	if l < 0 {
		return fmt.Sprintf("C%d_%d_not_x%d", j+1, p+1, -l)
	}
	return fmt.Sprintf("C%d_%d_x%d", j+1, p+1, l)
}

func (b *npBuilder) build() {
	n, m := b.f.Vars, len(b.f.Clauses)
	for i := 0; i <= n; i++ {
		b.junction(b.g(i))
	}
	for j := 1; j <= m; j++ {
		b.junction(b.h(j))
	}
	last := b.h(m)
	if n == 0 && m == 0 {
		// The empty formula is satisfied, but with both phases empty g0 is
		// also hm and no path leaves S: a bridge to a junction of its own
		// is the path of the empty assignment.
		last = b.junction(b.h(1))
	}
	b.thread("S", "write "+b.g(0), "read "+last)
	if last != b.h(m) {
		b.thread("B_empty", "read "+b.g(0), "write "+last)
	}
	// Clause steps first: they come first in each occurrence thread.
	for j, c := range b.f.Clauses {
		for p := range c {
			b.thread(b.occName(j, p), "read "+b.h(j), "write "+b.h(j+1))
		}
	}
	for i := 1; i <= n; i++ {
		b.route(i, true)
		b.route(i, false)
	}
}

// route lays variable i's route for value val from g(i-1) to gi through
// the occurrence threads of the literal val falsifies, in clause order,
// with fresh junctions between them; a bridge thread when there are none.
func (b *npBuilder) route(i int, val bool) {
	falsified := -i
	tag := "T"
	if !val {
		falsified, tag = i, "F"
	}
	var occs []string
	for j, c := range b.f.Clauses {
		for p, l := range c {
			if l == falsified {
				occs = append(occs, b.occName(j, p))
			}
		}
	}
	if len(occs) == 0 {
		b.thread(fmt.Sprintf("B%d_%s", i, tag), "read "+b.g(i-1), "write "+b.g(i))
		return
	}
	from := b.g(i - 1)
	for t, o := range occs {
		to := b.g(i)
		if t < len(occs)-1 {
			to = b.junction(fmt.Sprintf("r%d%s_%d", i, tag, t+1))
		}
		b.thread(o, "read "+from, "write "+to)
		from = to
	}
}
