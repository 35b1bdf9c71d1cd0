package profiles

import "github.com/conc-dev/conc/model"

// The extraction is a forward dataflow analysis. For every reachable state q
// it computes two sets of letters, each a union over the paths from Init to q:
//
//	cur[q]  letters read or written in the transaction that is open at q;
//	bef[q]  letters of transactions that are already closed at q.
//
// An access edge q --l--> q' then yields the profiles (Definition 4)
//
//	▷ l ◁               always;
//	▷ x l ◁   for x in cur[q]  (x earlier in the same transaction);
//	▷ x ◁ ▷ l ◁ for x in bef[q] (x in an earlier transaction),
//
// and every profile arises this way at the edge of its second letter. Since
// cur and bef are unions over paths, "x in cur[q]" means exactly "some path
// to q has x in its open transaction", so the result is exact, not an
// approximation. The relations are built transposed (samePred[l] |= cur[q],
// one OR of Words(v) words per edge) and flipped at the end, so the cost is
// O(edges · words) plus O(v²).

// collector accumulates the transposed relations of one extraction.
type collector struct {
	w        int
	single   Set
	samePred []uint64 // row l: the x with ▷ x l ◁
	diffPred []uint64 // row l: the x with ▷ x ◁ ▷ l ◁
}

func newCollector(nvars int) *collector {
	w := Words(nvars)
	return &collector{
		w:        w,
		single:   NewSet(w),
		samePred: make([]uint64, 2*nvars*w),
		diffPred: make([]uint64, 2*nvars*w),
	}
}

// access records the profiles ending with an l-event made with the given
// open-transaction and closed-transaction letters.
func (c *collector) access(l Letter, cur, bef []uint64) {
	c.single.Add(l)
	sp := c.samePred[int(l)*c.w : int(l+1)*c.w]
	dp := c.diffPred[int(l)*c.w : int(l+1)*c.w]
	for i := range sp {
		sp[i] |= cur[i]
		dp[i] |= bef[i]
	}
}

// profiles flips the transposed relations into a Profiles.
func (c *collector) profiles(nvars int) *Profiles {
	p := newProfiles(nvars)
	copy(p.Single, c.single)
	n := 2 * nvars
	for l := 0; l < n; l++ {
		sp := Set(c.samePred[l*c.w : (l+1)*c.w])
		dp := Set(c.diffPred[l*c.w : (l+1)*c.w])
		for _, x := range sp.Letters() {
			p.Same[x].Add(Letter(l))
		}
		for _, x := range dp.Letters() {
			p.Diff[x].Add(Letter(l))
		}
	}
	return p
}

// extractFinite computes the profiles of a finite automaton: a single pass
// when the reachable part is one path (a straight-line thread), else the
// fixpoint of extractRegular.
func extractFinite(a *model.Automaton, nvars int) *Profiles {
	c := newCollector(nvars)
	if !extractLine(a, c) {
		c = newCollector(nvars)
		extractRegular(a, c)
	}
	return c.profiles(nvars)
}

// extractLine walks the path from Init while every state has one out-edge,
// keeping cur and bef as running sets. It reports false (having done partial
// work the caller discards) when it meets a branch or walks longer than the
// automaton has states, which means a cycle.
func extractLine(a *model.Automaton, c *collector) bool {
	cur, bef := make([]uint64, c.w), make([]uint64, c.w)
	q, steps, n := a.Init, 0, a.NumStates()
	for {
		es := a.Out[q]
		switch {
		case len(es) == 0:
			return true
		case len(es) > 1 || steps > n:
			return false
		}
		ev := es[0].Ev
		switch ev.Op {
		case model.OpRead, model.OpWrite:
			l := LetterOf(ev)
			c.access(l, cur, bef)
			cur[l>>6] |= 1 << (uint(l) & 63)
		case model.OpBegin, model.OpEnd:
			for i := range cur {
				bef[i] |= cur[i]
				cur[i] = 0
			}
		}
		q = es[0].To
		steps++
	}
}
