package all

import (
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/internal/batch"
	"github.com/conc-dev/conc/predict/internal/chain"
)

// The witnesses of conc predict --all's groups (docs/predict.md, "Every
// group (--all)"): the first by Find, in order until one replays (the
// verdict's proof), the others in batches as the caller asks for them.
// A batch takes the next groups not built yet, plans each witness from
// its first finder with a plan (planOf, over predict's projection), and
// hands the plans to internal/batch, which fills their
// runs in one pass over the spool and verifies them. A run that fails the
// verification has its group's other finders tried one at a time (build),
// as one larger than a batch is built alone. Memory: the batch's runs, at
// most batchEdges edges in all (or one witness larger than that), never
// every group's.

// batchGroups and batchEdges bound a batch: groups, and the planned edges
// of their runs together (about 40 bytes each as steps).
const (
	batchGroups = 64
	batchEdges  = 1 << 19
)

// witnesses builds the groups' witnesses.
type witnesses struct {
	x      *predict.Projection
	c      *chain.Chainer // the lock-free scan's (nil without): its normal runs' chains
	groups []*tally       // the collector's, in the order of shown
	misses int            // patterns the collector dropped for want of e1's site (the tests check there are none)
	// shown is the answer's groups (Outcome.Groups): a group's Source
	// and Dropped are set as its witness is built.
	shown     []Group
	first     *predict.Outcome         // the first verified group's witness
	at        int                      // its group
	ahead     int                      // Outcome.Ahead
	ready     map[int]*predict.Outcome // a batch's verified witnesses, until witness hands them out
	schedules map[int]Schedule         // and their schedules, until schedule does
	scanPlans map[int]scanPlanned      // normal runs' plans made ahead (locate.go)
	spare     *batchRun                // a plan the last batch had no room for
	batches   *batch.Builder           // fills and verifies the batches' runs
	// For the tests: a smaller bound on a batch's edges (0: batchEdges),
	// and the runs filled in batches: planned, observed, failed; built
	// alone.
	maxEdges int64
	filled   [4]int
}

// batchRun is a group's run in a batch: the finder whose plan it is and
// what that finder's answer says.
type batchRun struct {
	*batch.Run
	g, src      int
	engine, why string
}

// newWitnesses is the builder of the groups' witnesses over x (nil: a
// trace cut short by the deadline, no group).
func newWitnesses(x *predict.Projection) *witnesses {
	w := &witnesses{x: x, at: -1, ready: map[int]*predict.Outcome{}, schedules: map[int]Schedule{}, scanPlans: map[int]scanPlanned{}}
	if x != nil {
		w.batches = batch.NewBuilder(x.Summary(), x.Spool(), x.Options().Check.LockEdges, predict.UnaryWrappers)
	}
	return w
}

// buildFirst builds witnesses in order until one replays, and keeps it;
// nil when none does (or the deadline came first).
func (w *witnesses) buildFirst() (*predict.Outcome, error) {
	for k := range w.groups {
		if k > 0 && w.x.Context().Err() != nil {
			break // each try is a pass over the spool: not past the deadline
		}
		out, err := w.build(k)
		if err != nil {
			return nil, err
		}
		if out != nil {
			w.first, w.at = out, k
			return out, nil
		}
	}
	return nil, nil
}

// witness is group k's witness (Outcome.Witness), a batch of at most
// ahead groups (0: batchGroups) built for it if need be.
func (w *witnesses) witness(k, ahead int) (*predict.Outcome, error) {
	w.ahead = ahead
	switch {
	case k == w.at:
		return w.first, nil
	case w.shown[k].Dropped:
		return nil, nil
	}
	if _, ok := w.ready[k]; !ok {
		if err := w.buildBatch(k); err != nil {
			return nil, err
		}
	}
	out := w.ready[k]
	delete(w.ready, k)
	return out, nil
}

// schedule is group k's witness's schedule (Outcome.Schedule).
func (w *witnesses) schedule(k int, out *predict.Outcome) Schedule {
	if sch, ok := w.schedules[k]; ok {
		delete(w.schedules, k)
		return sch
	}
	return ScheduleOf(out.Program, out.Result.Witness)
}

// built reports that group k's witness costs nothing more (Outcome.Built).
func (w *witnesses) built(k int) bool {
	_, ok := w.ready[k]
	return ok || k == w.at || w.shown[k].Dropped
}

// buildBatch builds the witnesses of group k and the groups after it not
// built yet, as many as a batch holds, and keeps those that replay for
// witness; the groups none of whose witnesses replays are dropped.
func (w *witnesses) buildBatch(k int) error {
	if w.c != nil {
		if err := w.prePlanScans(k); err != nil {
			return err
		}
	}
	var fills []*batchRun
	edges := int64(0)
	for g := k; g < len(w.groups) && len(fills) < w.batchSize(); g++ {
		if w.built(g) {
			continue
		}
		f, err := w.spareOr(g)
		if err != nil {
			return err
		}
		if f == nil {
			continue // answered (predict's own witness), or planned in none: built one by one
		}
		n := f.Edges()
		if n > w.maxBatchEdges() && len(fills) == 0 {
			return w.buildAlone(f) // no copy of its threads' edges: as large as itself
		}
		if len(fills) > 0 && (edges+n > w.maxBatchEdges() || f.DropSync != fills[0].DropSync) {
			w.spare = f // the next batch's first
			break
		}
		edges += n
		fills = append(fills, f)
	}
	return w.fillBatch(fills)
}

// fillBatch fills and verifies the batch's runs (internal/batch), and
// keeps or retries each.
func (w *witnesses) fillBatch(fills []*batchRun) error {
	runs := make([]*batch.Run, len(fills))
	for x, f := range fills {
		runs[x] = f.Run
	}
	if err := w.batches.Build(runs); err != nil {
		return err
	}
	for _, f := range fills {
		if f.Observed() {
			w.filled[1]++
		} else {
			w.filled[0]++
		}
	}
	for _, f := range fills {
		if err := w.keepOrRetry(f); err != nil {
			return err
		}
	}
	return nil
}

// spareOr is the plan the last batch had no room for, if it is group
// g's, or else group g's plan (planFirst).
func (w *witnesses) spareOr(g int) (*batchRun, error) {
	if f := w.spare; f != nil && f.g == g {
		w.spare = nil
		return f, nil
	}
	return w.planFirst(g)
}

// buildAlone builds a witness larger than a batch as materialise does,
// without keeping its threads' edges besides its run.
func (w *witnesses) buildAlone(f *batchRun) error {
	w.filled[3]++
	out, ok, err := w.x.Verified(f.Plan, f.DropSync, f.engine, f.why)
	switch {
	case err != nil:
		return err
	case ok:
		w.ready[f.g] = out
		w.shown[f.g].Source = sourceNames[f.src]
		return nil
	}
	out, err = w.buildFrom(f.g, f.src+1)
	if out != nil {
		w.ready[f.g] = out
	}
	return err
}

// maxBatchEdges is batchEdges, or the tests' smaller bound.
func (w *witnesses) maxBatchEdges() int64 {
	if w.maxEdges > 0 {
		return w.maxEdges
	}
	return batchEdges
}

// batchSize is how many groups a batch plans: batchGroups, or fewer when
// the caller said it shows fewer (Outcome.Ahead).
func (w *witnesses) batchSize() int {
	if w.ahead > 0 {
		return min(w.ahead, batchGroups)
	}
	return batchGroups
}

// planFirst plans group g's witness from its first finder with a plan.
// Predict's own answer needs none: it is kept as it is. A finder whose
// plan cannot be made (a normal run's chain not found again) is passed
// over; with none left the group is built one finder at a time (and
// dropped).
func (w *witnesses) planFirst(g int) (*batchRun, error) {
	grp := w.groups[g]
	for src := range nSources {
		if !grp.has[src] {
			continue
		}
		if src == srcAnswer {
			w.ready[g] = grp.pats[src].answer
			w.shown[g].Source = sourceNames[src]
			return nil, nil
		}
		pl, ok, engine, why, dropSync, err := w.planOf(g, src)
		if err != nil {
			return nil, err
		}
		if ok {
			run := batch.NewRun(pl, len(w.x.Summary().Threads), dropSync)
			return &batchRun{Run: run, g: g, src: src, engine: engine, why: why}, nil
		}
	}
	w.shown[g].Dropped = true
	return nil, nil
}

// keepOrRetry keeps a verified run's witness for witness (and its
// schedule for schedule); one that does not replay has its group's later
// finders tried one at a time.
func (w *witnesses) keepOrRetry(f *batchRun) error {
	if f.Replays {
		res := engines.Result{Engine: f.engine, Verdict: engines.Violation, Witness: f.Materialised.Witness, Reason: f.why}
		w.ready[f.g] = &predict.Outcome{Result: res, Program: f.Materialised.Names}
		w.schedules[f.g] = f.Schedule
		w.shown[f.g].Source = sourceNames[f.src]
		return nil
	}
	w.filled[2]++
	out, err := w.buildFrom(f.g, f.src+1)
	if out != nil {
		w.ready[f.g] = out
	}
	return err
}
