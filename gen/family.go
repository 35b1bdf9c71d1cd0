package gen

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Family is one generator of programs, by name, as conc gen lists them.
// Every family reads the sizes it needs from Params (Reads says which, with
// their ranges; a zero size takes the family's default) and draws any
// randomness from rng, so a seed reproduces a program.
type Family struct {
	Name  string
	Doc   string // one plain sentence for conc gen's list, naming the flags
	Reads Reads
	Gen   func(rng *rand.Rand, p Params) string
	// Bytes estimates the length of Gen's text under p, before drawing it.
	Bytes func(p Params) float64
	// Trace says that Gen writes an STD trace (docs/spec.md §3), not a
	// .conc program.
	Trace bool
}

var families = map[string]Family{}

// register adds a family; each family's file registers it in init.
func register(f Family) {
	if _, dup := families[f.Name]; dup {
		panic("gen: duplicate family " + f.Name)
	}
	families[f.Name] = f
}

// Lookup finds a family by name.
func Lookup(name string) (Family, error) {
	if f, ok := families[name]; ok {
		return f, nil
	}
	return Family{}, fmt.Errorf("unknown family %q (have %s)", name, strings.Join(Families(), ", "))
}

// Families lists the family names, sorted.
func Families() []string {
	var ns []string
	for n := range families {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

func init() {
	register(Family{
		Name: "random",
		Doc: "a random program of --threads threads making --n accesses each to --vars variables, " +
			"in transactions of up to --txn accesses; the switches add loops, choices, recursion, " +
			"nesting, accesses outside transactions, --locks locks (--sync) and a shared thread " +
			"declaration (--identical), and --trace writes a random trace instead",
		Reads: Reads{
			Knobs:    []Knob{at("threads", 1), at("n", 1), at("vars", 1), at("locks", 1), at("txn", 1)},
			Switches: []string{"loops", "choice", "recursion", "nested", "unary", "sync", "identical"},
			Seeded:   true,
			Requires: map[string]string{"locks": "sync"},
		},
		Gen:   Random,
		Bytes: randomBytes,
	})
}
