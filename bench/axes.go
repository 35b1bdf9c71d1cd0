package bench

import (
	"fmt"
	"sort"
	"strings"

	"github.com/conc-dev/conc/gen"
)

// Axis says how conc bench sizes a gen family: what n and k mean for it
// and the Params of the instance of size n with k threads.
type Axis struct {
	N, K     string // what the size n and the thread count k are, in words
	MinK     int    // the least k the family makes; 0: it has no thread count
	DefaultK int
	Sizes    []int // conc bench's default sizes
	Params   func(n, k int) gen.Params
	// Trace says the family writes STD traces, which the trace deciders
	// (RegisterTraceDecider) decide instead of the engines.
	Trace bool
}

// axes are the families conc bench can sweep.
var axes = map[string]Axis{
	"random": {N: "accesses per thread", K: "threads", MinK: 1, DefaultK: 2, Sizes: []int{2, 4, 8, 16}, Params: func(n, k int) gen.Params {
		return gen.Params{Threads: k, EventsPerThread: n, Vars: 2, TxnLen: 2}
	}},
	"chain": {N: "unary writes of z per thread", K: "threads", MinK: 2, DefaultK: 3, Sizes: []int{1, 2, 4, 8, 16, 32}, Params: func(n, k int) gen.Params {
		return gen.Params{Threads: k, EventsPerThread: n}
	}},
	"chain-twin": {N: "unary writes of z per thread (chain's serializable twin)", K: "threads", MinK: 2, DefaultK: 3, Sizes: []int{1, 2, 4, 8, 16, 32}, Params: func(n, k int) gen.Params {
		return gen.Params{Threads: k, EventsPerThread: n, Twin: true}
	}},
	"locked": {N: "critical sections per thread", K: "threads", MinK: 2, DefaultK: 2, Sizes: []int{2, 4, 8, 16, 32}, Params: func(n, k int) gen.Params {
		return gen.Params{Threads: k, EventsPerThread: n, Locks: 1}
	}},
	"deep": {N: "call depth the violation needs", K: "none (always 2 threads)", DefaultK: 2, Sizes: []int{2, 4, 8, 16, 32, 64}, Params: func(n, _ int) gen.Params {
		return gen.Params{Depth: n}
	}},
	"np": {N: "clauses (variables: n/4, at least 3)", K: "none", DefaultK: 0, Sizes: []int{4, 8, 12, 16}, Params: func(n, _ int) gen.Params {
		return gen.Params{Vars: max(3, n/4), Clauses: n}
	}},
	"view-np": {N: "clauses (variables: n/4, at least 3)", K: "none", DefaultK: 0, Sizes: []int{8, 16, 24, 32, 48, 64}, Trace: true, Params: func(n, _ int) gen.Params {
		return gen.Params{Vars: max(3, n/4), Clauses: n}
	}},
	"w1": {N: "states of each DFA (2 letters, m = 2)", K: "DFAs = threads", MinK: 2, DefaultK: 2, Sizes: []int{2, 3, 4, 5}, Params: func(n, k int) gen.Params {
		return gen.Params{Threads: k, States: n, Letters: 2, M: 2}
	}},
	"w1-counters": {N: "counter range of each DFA (2n states)", K: "DFAs = threads", MinK: 2, DefaultK: 2, Sizes: []int{1, 2, 3, 4, 6, 8}, Params: func(n, k int) gen.Params {
		return gen.Params{Threads: k, States: n}
	}},
}

// LookupAxis finds how to sweep a family, with its gen.Family.
func LookupAxis(family string) (Axis, gen.Family, error) {
	a, ok := axes[family]
	if ok && a.Trace && len(deciders) == 0 {
		ok = false // a trace family, and no decider linked (the playground's lab)
	}
	if !ok {
		return Axis{}, gen.Family{}, fmt.Errorf("family %q cannot be swept (have %s)", family, strings.Join(AxisNames(), ", "))
	}
	name := family
	if family == "chain-twin" {
		name = "chain"
	}
	f, err := gen.Lookup(name)
	return a, f, err
}

// CheckThreads checks the thread counts asked of a family: none for a
// family without a thread count, else each at least MinK.
func (a Axis) CheckThreads(family string, ks []int) error {
	if a.MinK == 0 && len(ks) > 0 {
		return fmt.Errorf("--threads does not apply to %s (it has no thread count)", family)
	}
	for _, k := range ks {
		if k < a.MinK {
			return fmt.Errorf("--threads %d: %s wants %d or more", k, family, a.MinK)
		}
	}
	return nil
}

// AxisNames lists the families conc bench can sweep, sorted.
func AxisNames() []string {
	var ns []string
	for n, a := range axes {
		if !a.Trace || len(deciders) > 0 {
			ns = append(ns, n)
		}
	}
	sort.Strings(ns)
	return ns
}
