package profiles

import "github.com/conc-dev/conc/model"

// The call rule matches a push with the pops of the same symbol. Code
// compiled from `.conc` gives every call site its own return symbol, so a
// procedure called from k sites ends in a state with k pop edges and has k
// callers, of which each push or pop matches exactly one. Scanning all of
// them at every call and every return made `repeat 100000 { call nest }`
// quadratic in the call sites (docs/pda.md, Complexity): the saturation
// looks them up by symbol instead, the pops per (state, symbol) here and
// the callers per symbol in each entry.

// popIndex lists each state's pop edges by symbol, built per state on
// first use.
type popIndex struct {
	a     *model.Automaton
	built []bool
	pops  map[popKey][]int32 // edge indices into a.Out[state]
}

type popKey struct{ state, sym int32 }

func newPopIndex(a *model.Automaton) *popIndex {
	return &popIndex{a: a, built: make([]bool, a.NumStates()), pops: map[popKey][]int32{}}
}

// of is the indices of q's pop edges of symbol sym.
func (x *popIndex) of(q, sym int32) []int32 {
	if !x.built[q] {
		x.built[q] = true
		for i, e := range x.a.Out[q] {
			if e.Stack == model.StackPop {
				k := popKey{q, e.Sym}
				x.pops[k] = append(x.pops[k], int32(i))
			}
		}
	}
	return x.pops[popKey{q, sym}]
}
