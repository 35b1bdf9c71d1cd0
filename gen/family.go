package gen

import (
	"fmt"
	"math/rand/v2"
	"sort"
)

// Family is one generator of programs, by name, as conc gen lists them.
// Every family reads the sizes it needs from Params (a family documents
// which) and draws any randomness from rng, so a seed reproduces a program.
type Family struct {
	Name string
	Doc  string
	Gen  func(rng *rand.Rand, p Params) string
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
	return Family{}, fmt.Errorf("unknown family %q (have %v)", name, Families())
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
		Doc:  "random programs under Params' sizes and switches (the differential tests' family)",
		Gen:  Random,
	})
}
