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
// random signs, and no clause twice until every different clause is taken
// (a repeated clause adds nothing to the formula). A clause costs
// O(1) expected whatever vars is, so a formula of a million variables is
// drawn as fast as one of three.
func RandomCNF(rng *rand.Rand, vars, clauses int) CNF {
	vars = max(vars, 1)
	k := min(3, vars)
	f := CNF{Vars: vars}
	all := clauseCount(vars, k)
	seen := make(map[[3]int]bool, int(min(float64(clauses), all)))
	for len(f.Clauses) < clauses {
		c := distinctVars(rng, vars, k)
		for i := range c {
			if rng.IntN(2) == 0 {
				c[i] = -c[i]
			}
		}
		if key := clauseKey(c); float64(len(seen)) < all {
			if seen[key] {
				continue // drawn again while others are left: ends, as they are finite
			}
			seen[key] = true
		}
		f.Clauses = append(f.Clauses, c)
	}
	return f
}

// clauseCount is the number of different clauses of k distinct variables
// of 1..n with signs, C(n, k)·2^k (as a float: it overflows for large n).
func clauseCount(n, k int) float64 {
	c := 1.0
	for i := range k {
		c = c * float64(n-i) / float64(i+1) * 2
	}
	return c
}

// clauseKey identifies a clause as a set of literals.
func clauseKey(c []int) [3]int {
	var key [3]int
	copy(key[:], c)
	slices.Sort(key[:len(c)])
	return key
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
	var d dimacs
	sc := bufio.NewScanner(strings.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		if err := d.line(line, strings.Fields(sc.Text())); err != nil {
			return CNF{}, err
		}
	}
	if err := sc.Err(); err != nil {
		return CNF{}, err
	}
	return d.end()
}

// dimacs is ParseDIMACS's state between lines.
type dimacs struct {
	f          CNF
	header     bool
	headerLine int // the header's line
	declared   int // the header's clause count
	cur        []int
}

// line reads one line's fields: a comment, the header, or literals.
func (d *dimacs) line(line int, fields []string) error {
	switch {
	case len(fields) == 0 || fields[0] == "c" || fields[0] == "%":
		return nil
	case fields[0] == "p":
		return d.readHeader(line, fields)
	case !d.header:
		return fmt.Errorf("line %d: clause before the \"p cnf\" header", line)
	}
	for _, w := range fields {
		l, err := strconv.Atoi(w)
		if err != nil || l > d.f.Vars || -l > d.f.Vars {
			return fmt.Errorf("line %d: bad literal %q (variables are 1..%d)", line, w, d.f.Vars)
		}
		if l == 0 {
			d.f.Clauses = append(d.f.Clauses, d.cur)
			d.cur = nil
			continue
		}
		d.cur = append(d.cur, l)
	}
	return nil
}

// readHeader reads "p cnf VARS CLAUSES", once.
func (d *dimacs) readHeader(line int, fields []string) error {
	if d.header || len(fields) != 4 || fields[1] != "cnf" {
		return fmt.Errorf("line %d: want one header \"p cnf VARS CLAUSES\"", line)
	}
	n, err := strconv.Atoi(fields[2])
	if err != nil || n < 0 {
		return fmt.Errorf("line %d: bad variable count %q", line, fields[2])
	}
	m, err := strconv.Atoi(fields[3])
	if err != nil || m < 0 {
		return fmt.Errorf("line %d: bad clause count %q", line, fields[3])
	}
	d.f.Vars, d.header, d.headerLine, d.declared = n, true, line, m
	return nil
}

// end checks the formula once every line is read.
func (d *dimacs) end() (CNF, error) {
	switch {
	case !d.header:
		return CNF{}, fmt.Errorf("no \"p cnf\" header")
	case len(d.cur) > 0:
		return CNF{}, fmt.Errorf("last clause is not ended by 0")
	case len(d.f.Clauses) != d.declared:
		return CNF{}, fmt.Errorf("line %d: the header declares %d clauses, the file has %d", d.headerLine, d.declared, len(d.f.Clauses))
	}
	return d.f, nil
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
