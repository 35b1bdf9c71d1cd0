package predict

import (
	"io"

	"github.com/conc-dev/conc/profiles"
	"github.com/conc-dev/conc/trace"
)

// The normal runs' plans of conc predict --all in batches: a normal run's
// plan locates its chain's events with a pass over the spool
// (chain_witness.go's locate), which made the lock-free synthetic trace's
// 4,539 groups take three minutes. prePlanScans finds the chains of the
// next groups whose witness is a normal run (in memory, each with its own
// allowance, as scanPlan), answers all their queries in one pass
// (locateMany) and keeps the plans until planOf asks for them: at most
// planAhead batches' plans (of batchGroups), a few segments each.

// planAhead is how many batches' normal runs one pass plans: a batch
// holds fewer runs than groups when they are long (batchEdges), and a
// plan is a few segments.
const planAhead = 4

// scanPlanned is a normal run's plan made ahead; ok false: its chain was
// not found again.
type scanPlanned struct {
	pl plan
	ok bool
}

// prePlanScans plans the normal runs of group k and the groups after it
// not built yet whose first finder is the scan, planAhead batches' worth,
// unless a batch's worth is planned already.
func (a *AllOutcome) prePlanScans(k int) error {
	type pending struct {
		g  int
		pr pair
		ls []linkLetters
		at int // its first query
	}
	var ps []pending
	var qs []query
	if len(a.scanPlans) >= a.batchSize() {
		return nil // enough made ahead for this batch
	}
	for g, ahead := k, 0; g < len(a.groups) && ahead < planAhead*a.batchSize(); g++ {
		grp := a.groups[g]
		if a.Built(g) || grp.has[srcAnswer] || !grp.has[srcScan] {
			continue
		}
		if ahead++; hasPlan(a.scanPlans, g) {
			continue // made by an earlier batch, which had no room for it
		}
		pr := grp.pats[srcScan].scan
		ls, ok, err := a.p.scanChain(a.c, pr)
		if err != nil {
			return err
		}
		if !ok {
			a.scanPlans[g] = scanPlanned{}
			continue
		}
		ps = append(ps, pending{g, pr, ls, len(qs)})
		qs = append(qs, chainQueries(ls)...)
	}
	if len(ps) == 0 {
		return nil
	}
	pos, err := locateMany(a.p.sp, a.c.k, qs)
	if err != nil {
		return err
	}
	for _, x := range ps {
		a.scanPlans[x.g] = scanPlanned{chainPlanAt(x.pr, x.ls, pos[x.at:x.at+2*len(x.ls)]), true}
	}
	return nil
}

// locateMany is locate for many queries: the pending ones indexed by
// thread and letter, so that an access costs a lookup, not a look at
// every query.
func locateMany(sp *spool, k int, qs []query) ([]occurrence, error) {
	found := make([]occurrence, len(qs))
	pending := make([]map[profiles.Letter][]int, k)
	for x, q := range qs {
		found[x].pos = -1
		if pending[q.t] == nil {
			pending[q.t] = map[profiles.Letter][]int{}
		}
		pending[q.t][q.l] = append(pending[q.t][q.l], x)
	}
	pp := newProjPos(k)
	r := sp.reader()
	var ev trace.Event
	for left := len(qs); left > 0; {
		if err := r.next(&ev); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		t := int(ev.Thread)
		at := pp.step(&ev)
		if at < 0 {
			continue
		}
		if xs := pending[t][letterOf(&ev)]; len(xs) > 0 {
			rest := xs[:0]
			for _, x := range xs {
				if pp.txn[t] >= qs[x].txn {
					found[x] = occurrence{at, pp.txn[t]}
					left--
				} else {
					rest = append(rest, x)
				}
			}
			pending[t][letterOf(&ev)] = rest
		}
	}
	return found, unanswered(qs, found)
}

func hasPlan(m map[int]scanPlanned, g int) bool {
	_, ok := m[g]
	return ok
}
