package profiles

import "github.com/conc-dev/conc/model"

// ProfileAutomaton is the paper's profile automaton P_i (Section 3.1): a
// finite automaton of O(v) states and O(v²) edges whose runs are exactly the
// prefixes of the thread's profiles. With L = 2v letters its states are
//
//	0        init                 (outside a transaction)
//	1        ▷                    (first transaction open, no access yet)
//	2+x      ▷ x                  (x ∈ Single)
//	2+L+x    ▷ x ◁                (outside)
//	2+2L+x   ▷ x ◁ ▷              (second transaction open)
//	2+3L     ▷ x y  or ▷ x ◁ ▷ y  (second access made)
//	3+3L     the profile is complete
//
// The events carry no positions: they stand for every event with that letter.
func ProfileAutomaton(p *Profiles) *model.Automaton {
	L := int32(p.Letters())
	n := 4 + 3*L
	a := &model.Automaton{Init: 0, Out: make([][]model.Edge, n), InTxn: make([]bool, n), Held: make([][]int32, n)}
	single, open1, closed, open2, second, done := int32(2), int32(1), 2+L, 2+2*L, 2+3*L, 3+3*L
	edge := func(from, to int32, ev model.Event) {
		a.Out[from] = append(a.Out[from], model.Edge{To: to, Ev: ev})
	}
	begin, end := model.Event{Op: model.OpBegin, Target: -1}, model.Event{Op: model.OpEnd, Target: -1}
	edge(0, open1, begin)
	for _, x := range p.Single.Letters() {
		x32 := int32(x)
		edge(open1, single+x32, x.Event())
		edge(single+x32, closed+x32, end)
		for _, y := range p.Same[x].Letters() {
			edge(single+x32, second, y.Event())
		}
		if !p.Diff[x].Empty() {
			edge(closed+x32, open2+x32, begin)
			for _, y := range p.Diff[x].Letters() {
				edge(open2+x32, second, y.Event())
			}
		}
	}
	edge(second, done, end)
	a.InTxn[open1], a.InTxn[second] = true, true
	for x := int32(0); x < L; x++ {
		a.InTxn[single+x], a.InTxn[open2+x] = true, true
	}
	return a
}
