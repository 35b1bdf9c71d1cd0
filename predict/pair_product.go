package predict

import (
	"fmt"

	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/predict/internal/products"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// The pairs' products (package internal/products, docs/predict.md, "Every
// pair of threads on its own"): each pair of threads decided on its own
// by the lock-aware product, when the product of all threads gave up.
// predict passes in its guards and budget, and verifies a pair's run.

// pairsProved is the outcome of every pair (products.Proved).
type pairsProved struct {
	proved bool
	busy   int
}

// pairProductNote starts the reason of a pair's violation.
const pairProductNote = "two threads on their own (the lock-aware product of one pair)"

// pairProducts decides the two-thread question for every pair of threads
// whose reduced projections are not empty: a violation of some pair is the
// answer; otherwise it reports whether every pair was proved free of
// two-thread cycles. size is the reduced projection of all threads
// counted with the synchronisation kept (step 6's counting pass); nil
// counts it here.
func (p *predictor) pairProducts(size *proj.Reduced) (*Outcome, pairsProved, error) {
	if size == nil {
		var err error
		if size, err = p.s.Reduce(p.sp, p.u, p.o.Check.LockEdges, false, true); err != nil {
			return nil, pairsProved{}, err
		}
	}
	var out *Outcome
	found, pp, err := products.Decide(p.productsInput(), size, p.acceptPair(&out))
	if err != nil {
		return nil, pairsProved{}, err
	}
	if !found {
		out = nil
	}
	return out, pairsProved{proved: pp.Proved, busy: pp.Busy}, nil
}

// pairProduct decides one pair (states: its size, for the guards).
func (p *predictor) pairProduct(t1, t2 int, states, npairs int64) (products.Verdict, *Outcome, error) {
	var out *Outcome
	v, err := products.Pair(p.productsInput(), t1, t2, states, npairs, p.acceptPair(&out))
	return v, out, err
}

// productsInput is the pairs' products' view of the request: the table,
// memory and default-size guards of the product search, and each pair's
// share of the default state budget.
func (p *predictor) productsInput() products.Input {
	return products.Input{Ctx: p.ctx, Summary: p.s, Spool: p.sp, Users: p.u, Check: p.o.Check,
		Fits: func(states int64) bool {
			guard := &proj.Reduced{States: states, Vars: len(p.s.Vars), Locks: len(p.s.Locks)}
			need := tableBytes(guard, len(p.s.Threads))
			return need <= p.maxTable() && budget.New(p.o.Check.MaxMemory).Fits(need) && !(p.defaultBudget() && states > DefaultMaxSize)
		},
		States: func(npairs int64) int {
			if !p.defaultBudget() {
				return 0
			}
			return int(max(p.budget()/max(npairs, 1), 20_000))
		}}
}

// acceptPair verifies a pair's run and, if it replays, keeps it in out.
func (p *predictor) acceptPair(out **Outcome) products.Accept {
	return func(t1, t2 int, pl proj.Plan) (bool, error) {
		why := fmt.Sprintf("%s: threads %s and %s", pairProductNote, p.s.ThreadNames[t1], p.s.ThreadNames[t2])
		o, ok, err := p.checked(pl, why)
		*out = o
		return ok, err
	}
}
