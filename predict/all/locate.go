package all

import (
	"github.com/conc-dev/conc/predict/internal/chain"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// The normal runs' plans of conc predict --all in batches: a normal run's
// plan locates its chain's events with a pass over the spool
// (internal/chain/chain_witness.go's Locate), which made the lock-free
// synthetic trace's 4,539 groups take three minutes. prePlanScans finds the
// chains of the next groups whose witness is a normal run (in memory, each
// with its own allowance, as scanPlan), answers all their queries in one pass
// (chain.Locate) and keeps the plans until planOf asks for them: at most
// planAhead batches' plans (of batchGroups), a few segments each.

// planAhead is how many batches' normal runs one pass plans: a batch
// holds fewer runs than groups when they are long (batchEdges), and a
// plan is a few segments.
const planAhead = 4

// scanPlanned is a normal run's plan made ahead; ok false: its chain was
// not found again.
type scanPlanned struct {
	pl proj.Plan
	ok bool
}

// prePlanScans plans the normal runs of group k and the groups after it
// not built yet whose first finder is the scan, planAhead batches' worth,
// unless a batch's worth is planned already.
func (w *witnesses) prePlanScans(k int) error {
	type pending struct {
		g  int
		pr chain.Interrupted
		ls []chain.Link
		at int // its first query
	}
	var ps []pending
	var qs []chain.Query
	if len(w.scanPlans) >= w.batchSize() {
		return nil // enough made ahead for this batch
	}
	for g, ahead := k, 0; g < len(w.groups) && ahead < planAhead*w.batchSize(); g++ {
		grp := w.groups[g]
		if w.built(g) || grp.has[srcAnswer] || !grp.has[srcScan] {
			continue
		}
		if ahead++; hasPlan(w.scanPlans, g) {
			continue // made by an earlier batch, which had no room for it
		}
		pr := grp.pats[srcScan].scan
		ls, ok, err := scanChain(w.c, pr)
		if err != nil {
			return err
		}
		if !ok {
			w.scanPlans[g] = scanPlanned{}
			continue
		}
		ps = append(ps, pending{g, pr, ls, len(qs)})
		qs = append(qs, chain.Queries(ls)...)
	}
	if len(ps) == 0 {
		return nil
	}
	pos, err := chain.Locate(w.x.Spool(), w.c.Threads(), qs, nil)
	if err != nil {
		return err
	}
	for _, x := range ps {
		w.scanPlans[x.g] = scanPlanned{chain.PlanAt(x.pr, x.ls, pos[x.at:x.at+2*len(x.ls)]), true}
	}
	return nil
}

func hasPlan(m map[int]scanPlanned, g int) bool {
	_, ok := m[g]
	return ok
}
