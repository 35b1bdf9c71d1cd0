package profiles

import (
	"context"
	"fmt"

	"github.com/conc-dev/conc/model"
)

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
// one OR of a set's words per edge) and flipped at the end, so the cost is
// O(edges · words) plus O(u²) for the u letters the automaton uses (sets
// range over those, alphabet.go).

// collector accumulates the transposed relations of one extraction, over
// the automaton's local letters (alphabet.go).
type collector struct {
	al       *alphabet
	nvars    int
	w        int // words of a set of local letters
	letters  int // local letters
	single   Set
	samePred []uint64 // row l: the x with ▷ x l ◁
	diffPred []uint64 // row l: the x with ▷ x ◁ ▷ l ◁
	edges    int      // edges processed (reachable edges, counted once)
	sync     bool     // some reachable edge is a lock, fork or join event
	ctx      context.Context
	done     <-chan struct{} // ctx's (nil: never ends)
}

// Polling. An extraction of a large automaton runs long (Lemma 4's
// saturation is cubic), so its loops watch their context: a non-blocking
// receive from the done channel, every tickMask+1 steps of the fixpoints
// (a state of the sweep's order, a fact taken) and every lineMask+1 edges of
// the straight-line walk, the hot loop of conc predict. The counters are
// the loops' own (a register), and the walk folds its poll into its bound
// check, so a walk's step costs no instruction more.
const (
	tickMask = 1<<8 - 1
	lineMask = 1<<14 - 1
)

// within makes the extraction watch ctx.
func (c *collector) within(ctx context.Context) {
	c.ctx, c.done = ctx, ctx.Done()
}

// ended is the context's cause once it has ended, nil before. Not
// inlined: the hot loops keep only a call they rarely make (inlined, the
// select cost the straight-line walk 6% more instructions).
//
//go:noinline
func (c *collector) ended() error {
	select {
	case <-c.done:
		return context.Cause(c.ctx)
	default:
		return nil
	}
}

// nextPoll is the step after which a straight-line walk of n steps next
// polls (it stops at n anyway).
func nextPoll(steps, n int32) int32 { return min(n, steps+lineMask) }

// newCollector sizes the tables by the letters a uses: O(u²) bits for u
// used letters, whatever the program's variables.
func newCollector(a *model.Automaton, nvars int) *collector {
	al := newAlphabet(a, nvars)
	u := al.size()
	w := max(1, (u+63)/64)
	return &collector{
		al:       al,
		nvars:    nvars,
		w:        w,
		letters:  u,
		single:   NewSet(w),
		samePred: make([]uint64, u*w),
		diffPred: make([]uint64, u*w),
	}
}

// access records the profiles ending with an l-event made with the given
// open-transaction and closed-transaction letters (all local).
func (c *collector) access(l Letter, cur, bef []uint64) {
	c.single.Add(l)
	sp := c.samePred[int(l)*c.w : int(l+1)*c.w]
	dp := c.diffPred[int(l)*c.w : int(l+1)*c.w]
	for i := range sp {
		sp[i] |= cur[i]
		dp[i] |= bef[i]
	}
}

// profiles flips the transposed relations into a Profiles over the global
// letters.
func (c *collector) profiles() *Profiles {
	g := c.al.global
	var used []Letter
	for _, l := range c.single.Letters() {
		used = append(used, g[l])
	}
	p := newProfilesOver(c.nvars, used)
	p.Edges, p.Sync = c.edges, c.sync
	for l := 0; l < c.letters; l++ {
		sp := Set(c.samePred[l*c.w : (l+1)*c.w])
		dp := Set(c.diffPred[l*c.w : (l+1)*c.w])
		for _, x := range sp.Letters() {
			p.Same[g[x]].Add(g[l])
		}
		for _, x := range dp.Letters() {
			p.Diff[g[x]].Add(g[l])
		}
	}
	return p
}

// extractLine walks the path from Init while every state has one out-edge,
// keeping cur and bef as running sets, and checks each edge as it goes. It
// reports false (having done partial work the caller discards) when it meets
// a branch, a stack operation, or walks longer than the automaton has states,
// which means a cycle. This is the straight-line case, so it is the hot loop
// of `conc predict` on long traces: one word per set when the automaton
// uses at most 64 letters.
func extractLine(a *model.Automaton, c *collector) (bool, error) {
	if c.w == 1 {
		return extractLine1(a, c)
	}
	cur, bef := make([]uint64, c.w), make([]uint64, c.w)
	L := Letter(2 * c.nvars)
	q, n := a.Init, int32(len(a.Out))
	lim := nextPoll(0, n)
	for steps := int32(0); ; steps++ {
		es := a.Out[q]
		if len(es) != 1 || steps > lim {
			if len(es) != 1 || steps > n {
				return len(es) == 0, nil
			}
			if err := c.ended(); err != nil {
				return false, err
			}
			lim = nextPoll(steps, n)
		}
		e := &es[0]
		if err := checkEdge(q, e, n, L); err != nil || e.Stack != model.StackNone {
			return false, err
		}
		switch e.Ev.Op {
		case model.OpRead, model.OpWrite:
			l := c.al.of(LetterOf(e.Ev))
			c.access(l, cur, bef)
			cur[l>>6] |= 1 << (uint(l) & 63)
		case model.OpBegin, model.OpEnd:
			for i := range cur {
				bef[i] |= cur[i]
				cur[i] = 0
			}
		default:
			c.sync = c.sync || e.Ev.Op.IsSync()
		}
		c.edges++
		q = e.To
	}
}

// extractLine1 is extractLine with sets of one word.
func extractLine1(a *model.Automaton, c *collector) (bool, error) {
	var cur, bef, single uint64
	same, diff, local := c.samePred, c.diffPred, c.al.local
	if c.al.identity {
		local = nil // no lookup: this loop is the hot one
	}
	L := Letter(2 * c.nvars)
	q, n := a.Init, int32(len(a.Out))
	lim := nextPoll(0, n)
	for steps := int32(0); ; steps++ {
		es := a.Out[q]
		if len(es) != 1 || steps > lim {
			if len(es) != 1 || steps > n {
				c.single[0] |= single
				c.edges = int(steps)
				return len(es) == 0, nil
			}
			if err := c.ended(); err != nil {
				return false, err
			}
			lim = nextPoll(steps, n)
		}
		e := &es[0]
		switch e.Ev.Op {
		case model.OpRead, model.OpWrite:
			g := LetterOf(e.Ev)
			if uint32(g) >= uint32(L) {
				return false, checkEdge(q, e, n, L)
			}
			l := g
			if local != nil {
				l = Letter(local[g])
			}
			same[l] |= cur
			diff[l] |= bef
			bit := uint64(1) << uint(l)
			single |= bit
			cur |= bit
		case model.OpBegin, model.OpEnd:
			bef |= cur
			cur = 0
		default:
			c.sync = c.sync || e.Ev.Op.IsSync()
		}
		if uint32(e.To) >= uint32(n) || e.Stack != model.StackNone {
			c.single[0] |= single
			return false, checkEdge(q, e, n, L)
		}
		q = e.To
	}
}

// checkEdge reports an edge to a missing state or an access to a missing
// variable.
func checkEdge(q int32, e *model.Edge, n int32, L Letter) error {
	if e.To < 0 || e.To >= n {
		return fmt.Errorf("profiles: edge from state %d to missing state %d", q, e.To)
	}
	if e.Ev.Op.IsAccess() && (e.Ev.Target < 0 || LetterOf(e.Ev) >= L) {
		return fmt.Errorf("profiles: state %d accesses variable %d of %d", q, e.Ev.Target, L/2)
	}
	return nil
}
