package gen

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// CNF is a propositional formula in conjunctive normal form, the input of
// the np family. Variables are 1..Vars; a literal is +v or -v (DIMACS).
type CNF struct {
	Vars    int
	Clauses [][]int
}

// String writes f in DIMACS, the format ParseDIMACS reads.
func (f CNF) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "p cnf %d %d\n", f.Vars, len(f.Clauses))
	for _, c := range f.Clauses {
		for _, l := range c {
			fmt.Fprintf(&sb, "%d ", l)
		}
		sb.WriteString("0\n")
	}
	return sb.String()
}

// RandomCNF draws a formula of the given numbers of variables and clauses,
// each clause over three distinct variables (fewer when vars < 3) with
// random signs. A clause costs O(1) whatever vars is, so a formula of a
// million variables is drawn as fast as one of three.
func RandomCNF(rng *rand.Rand, vars, clauses int) CNF {
	vars = max(vars, 1)
	f := CNF{Vars: vars}
	for range clauses {
		c := distinctVars(rng, vars, min(3, vars))
		for i := range c {
			if rng.IntN(2) == 0 {
				c[i] = -c[i]
			}
		}
		f.Clauses = append(f.Clauses, c)
	}
	return f
}

// distinctVars draws k distinct variables of 1..n uniformly (Floyd's
// sampling: k draws, none wasted, nothing of size n allocated).
func distinctVars(rng *rand.Rand, n, k int) []int {
	c := make([]int, 0, k)
	for j := n - k + 1; j <= n; j++ {
		v := 1 + rng.IntN(j)
		if slices.Contains(c, v) {
			v = j
		}
		c = append(c, v)
	}
	return c
}

// ParseDIMACS reads a formula in DIMACS CNF: comment lines start with c,
// the header is "p cnf VARS CLAUSES", and each clause is a list of non-zero
// literals ended by 0 (clauses may span lines).
func ParseDIMACS(text string) (CNF, error) {
	var f CNF
	header := false
	var cur []int
	sc := bufio.NewScanner(strings.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 0 || fields[0] == "c" || fields[0] == "%":
			continue
		case fields[0] == "p":
			if header || len(fields) != 4 || fields[1] != "cnf" {
				return CNF{}, fmt.Errorf("line %d: want one header \"p cnf VARS CLAUSES\"", line)
			}
			n, err := strconv.Atoi(fields[2])
			if err != nil || n < 0 {
				return CNF{}, fmt.Errorf("line %d: bad variable count %q", line, fields[2])
			}
			f.Vars, header = n, true
			continue
		}
		if !header {
			return CNF{}, fmt.Errorf("line %d: clause before the \"p cnf\" header", line)
		}
		for _, w := range fields {
			l, err := strconv.Atoi(w)
			if err != nil || l > f.Vars || -l > f.Vars {
				return CNF{}, fmt.Errorf("line %d: bad literal %q (variables are 1..%d)", line, w, f.Vars)
			}
			if l == 0 {
				f.Clauses = append(f.Clauses, cur)
				cur = nil
				continue
			}
			cur = append(cur, l)
		}
	}
	if err := sc.Err(); err != nil {
		return CNF{}, err
	}
	if !header {
		return CNF{}, fmt.Errorf("no \"p cnf\" header")
	}
	if len(cur) > 0 {
		return CNF{}, fmt.Errorf("last clause is not ended by 0")
	}
	return f, nil
}

// Satisfiable decides f by trying every assignment (2^Vars of them): the
// direct check the np family is tested against. Vars must be small.
func (f CNF) Satisfiable() bool {
	for a := uint64(0); a < 1<<f.Vars; a++ {
		if f.satisfiedBy(a) {
			return true
		}
	}
	return false
}

// satisfiedBy reports whether assignment a (bit v-1: variable v) satisfies f.
func (f CNF) satisfiedBy(a uint64) bool {
	for _, c := range f.Clauses {
		sat := false
		for _, l := range c {
			v := l
			if v < 0 {
				v = -v
			}
			if (a>>(v-1)&1 == 1) == (l > 0) {
				sat = true
				break
			}
		}
		if !sat {
			return false
		}
	}
	return true
}
