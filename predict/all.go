package predict

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/chain"
	"github.com/conc-dev/conc/predict/internal/pair"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/predict/internal/sites"
	"github.com/conc-dev/conc/trace"
)

// conc predict --all (docs/predict.md, "Every group (--all)"): instead of
// the first violation, every group of predicted violations, a group being
// the patterns whose interrupted transaction's two accesses have the same
// code locations. The finders go on after each hit (all_collect.go) and
// keep per group its count and one pattern per finder; a group's witness
// is built only when asked for (AllOutcome.Witness), with the next groups'
// in a batch (all_batch.go), and verified like predict's single answer
// (internal/proj/gate.go): one that fails drops the group, counted, and is
// never shown. AllOutcome is the answer; allWitnesses (all_batch.go)
// builds its witnesses, planning each from its finders' patterns (planOf,
// the part that needs the predictor).

// AllGroup is one group of predicted violations.
type AllGroup struct {
	// Signature is the code locations and ops of the interrupted
	// transaction's two accesses (e1, where the cycle leaves it, then e2),
	// the start of conc monitor's signature.
	Signature string
	// Thread is the interrupted transaction's thread in the group's first
	// pattern; First is that pattern's e1 line (the least over the group).
	Thread string
	First  int64
	// Count is how many patterns the finder that found most of the group
	// found (each finder reports one pattern per access at most).
	Count int64
	// Vars are the variables of the two accesses.
	Vars []string
	// Source names the finder whose witness was shown; Dropped reports a
	// group whose witnesses all failed the verification. Both are set by
	// Witness.
	Source  string
	Dropped bool
}

// AllOutcome is conc predict --all's answer: the verdict (Result, without
// a witness), the groups in order of their first line, and their
// witnesses, built as they are asked for (Witness: the spool stays until
// Close).
type AllOutcome struct {
	Outcome
	Groups []AllGroup
	// Incomplete says why the groups may not be all (a budget or the
	// deadline cut a finder short), "" if they are.
	Incomplete string

	// Ahead, when positive, is how many groups' witnesses the caller will
	// ask for at most (the text's --max-groups): a batch builds no more.
	Ahead int

	w     *allWitnesses // builds the groups' witnesses (all_batch.go)
	close func() error
}

// All predicts every group of violations of the trace (docs/predict.md,
// "Every group (--all)"). Without locks, fork and join (or with
// IgnoreSync) the lock-free scan is the verdict: violation when some
// group's witness replays, serializable when it finds nothing. With them,
// Predict's own answer is the verdict (a serializable or unknown answer
// stands), and the finders (the scan's normal runs, the two-thread
// patterns) add the groups; an unknown answer becomes a violation if one
// of their witnesses replays.
func All(ctx context.Context, r *trace.Reader, o Options) (*AllOutcome, error) {
	start := time.Now()
	r.Within(ctx)
	sp, err := proj.NewSpool(o.TempDir)
	if err != nil {
		return nil, err
	}
	sp.Locs, sp.Shift = true, o.lineShift
	s, err := proj.Collect(ctx, r, sp)
	if err != nil {
		sp.Close()
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) { // as Predict answers
			return &AllOutcome{Outcome: *deadlineWhileReading(r, o), close: func() error { return nil }, w: newAllWitnesses(nil)}, nil
		}
		return nil, err
	}
	p := &predictor{ctx: ctx, s: s, u: s.Users(), sp: sp, o: o}
	a := &AllOutcome{close: sp.Close, w: newAllWitnesses(p)}
	locs := r.Locs().Names()
	if err := a.find(); err != nil {
		sp.Close()
		return nil, err
	}
	a.sortGroups(locs)
	if err := a.settle(); err != nil {
		sp.Close()
		return nil, err
	}
	complete(s, &a.Outcome, start)
	return a, nil
}

// Close removes the spool; no witness can be built after it.
func (a *AllOutcome) Close() error { return a.close() }

// find runs the finders (and, unless the lock-free scan decides, as it
// does for predict when the engine is profile, Predict's own decision
// first).
func (a *AllOutcome) find() error {
	p, col := a.w.p, newCollector()
	defer func() { a.w.groups, a.w.misses = col.groups, col.misses }()
	name, _, err := p.pickEngine()
	if err != nil {
		return err
	}
	if name == "profile" {
		c, err := p.allScan(col)
		a.w.c = c
		a.Result = engines.Result{Engine: "profile", Verdict: engines.Serializable}
		a.Result.Stats.States = c.States
		if c.Stop != "" {
			a.Result.Verdict, a.Result.Reason, a.Result.Limit, a.Incomplete = engines.Unknown, c.Stop, c.StopBy, c.Stop
		}
		if len(col.groups) > 0 {
			a.Result.Verdict, a.Result.Reason, a.Result.Limit = engines.Violation, p.optimisticNote(), engines.NoLimit
			if c.Stop != "" {
				a.Incomplete = p.stoppedAt(c)
			}
		}
		return err
	}
	out, err := p.decide()
	if err != nil {
		return err
	}
	a.Outcome = *out
	a.Result.Witness = nil
	if out.Result.Verdict == engines.Serializable {
		return nil
	}
	if err := a.addAnswer(col, out); err != nil {
		return err
	}
	if p.o.Engine != "" && p.o.Engine != "auto" {
		return nil // the named engine answers alone, as in predict
	}
	return a.runFinders(col)
}

// stoppedAt words c's stop for a violation's note: "no violation within
// predict's default budget …" is an unknown answer's reason, and read
// after `violation` it contradicts it.
func (p *predictor) stoppedAt(c *chain.Chainer) string {
	if c.StopBy == engines.StateBudget && p.defaultBudget() {
		return "the chain search stopped at " + chainBudget(c)
	}
	return c.Stop
}

// runFinders adds the groups of the two-thread patterns (the lock-free
// scan's normal runs ignore the synchronisation: most would fail the
// verification).
func (a *AllOutcome) runFinders(col *collector) error {
	p := a.w.p
	if !p.denseClocks() {
		a.Incomplete = manyThreadsNote
		return nil
	}
	for _, find := range []func(*collector) (bool, error){p.allPairsLocked, p.allPairsHB, p.allNested} {
		done, err := find(col)
		if err != nil {
			return err
		}
		if !done {
			a.Incomplete = chain.StopNote(p.ctx)
			return nil
		}
	}
	if col.cut != "" && a.Incomplete == "" {
		a.Incomplete = col.cut
	}
	return nil
}

// addAnswer makes Predict's own witness a group's: its cycle's first
// event and last are taken for e1 and e2.
func (a *AllOutcome) addAnswer(col *collector, out *Outcome) error {
	w := out.Result.Witness
	if out.Result.Verdict != engines.Violation || w == nil || len(w.Cycle) == 0 {
		return nil
	}
	e1, e2 := w.Run[w.Cycle[0].From], w.Run[w.Cycle[len(w.Cycle)-1].To]
	l1, l2 := int64(e1.Ev.Pos.Line), int64(e2.Ev.Pos.Line)
	at, err := sites.At(a.w.p.sp, l1, l2)
	if err != nil {
		return err
	}
	// An event without a line (none is expected) is named by its op and
	// target, so that the answer is always a group.
	siteAt := func(l int64, ev model.Event) sites.Site {
		if x, ok := at[l]; ok {
			return x
		}
		return sites.Site{Op: ev.Op, Loc: -1, Target: ev.Target}
	}
	g, _ := col.add(srcAnswer, int(e1.Thread), siteAt(l1, e1.Ev), siteAt(l2, e2.Ev), l1)
	g.pats[srcAnswer].answer = out
	return nil
}

// sortGroups orders the groups by first line and names them.
func (a *AllOutcome) sortGroups(locs []string) {
	groups := a.w.groups
	slices.SortStableFunc(groups, func(x, y *allGroup) int { return cmp.Compare(x.first, y.first) })
	s := a.w.p.s
	a.Groups = make([]AllGroup, len(groups))
	for k, g := range groups {
		ag := AllGroup{Signature: sites.Text(s, g.sites[0], locs) + " " + sites.Text(s, g.sites[1], locs),
			Thread: s.ThreadNames[g.thread], First: g.first, Count: slices.Max(g.counts[:])}
		for _, x := range g.sites {
			if !x.Op.IsAccess() || x.Target < 0 || int(x.Target) >= len(s.Vars) {
				continue
			}
			if v := s.Vars[x.Target]; !slices.Contains(ag.Vars, v) {
				ag.Vars = append(ag.Vars, v)
			}
		}
		a.Groups[k] = ag
	}
	a.w.shown = a.Groups
}

// settle builds witnesses in order until one replays: the verdict is a
// violation only with one (a lock-free scan whose every witness fails is
// an engine's bug, a WitnessError, as in predict).
func (a *AllOutcome) settle() error {
	out, err := a.w.buildFirst()
	if err != nil {
		return err
	}
	if out != nil {
		if a.Result.Verdict != engines.Violation { // an unknown answer, now proved
			a.Result.Verdict, a.Result.Reason, a.Result.Limit = engines.Violation, out.Result.Reason, engines.NoLimit
		}
		return nil
	}
	ctx := a.w.p.ctx
	if a.Result.Verdict == engines.Violation && ctx.Err() != nil {
		// The deadline came before a witness could be verified: no proof.
		a.Result.Limit, a.Result.Reason = chain.Ended(ctx)
		a.Result.Verdict, a.Incomplete = engines.Unknown, a.Result.Reason
		return nil
	}
	if a.Result.Verdict == engines.Violation {
		return &proj.WitnessError{Engine: a.Result.Engine, Err: fmt.Errorf("none of the %d groups' witnesses replays", len(a.Groups))}
	}
	return nil
}

// Witness is group k's verified witness, built now (the first one was
// built by All) with the next groups' in the same batch (all_batch.go);
// nil when the group is dropped (no finder's witness replays). A witness
// is handed out once: the batch lets it go.
func (a *AllOutcome) Witness(k int) (*Outcome, error) { return a.w.witness(k, a.Ahead) }

// Schedule is group k's witness's schedule (out being that witness):
// computed with the witness by its batch, or now.
func (a *AllOutcome) Schedule(k int, out *Outcome) Schedule { return a.w.schedule(k, out) }

// Built reports that group k's witness costs nothing more: it is the
// first one All built, a batch built it, or the group is dropped.
func (a *AllOutcome) Built(k int) bool { return a.w.built(k) }

// Dropped counts the groups whose witnesses were tried and all failed.
func (a *AllOutcome) Dropped() int {
	n := 0
	for _, g := range a.Groups {
		if g.Dropped {
			n++
		}
	}
	return n
}

// The rest is allWitnesses' side that needs the predictor: a group's
// witness planned from its finders' patterns, and verified one at a time
// (the batches are all_batch.go's).

// build tries group k's patterns finder by finder and returns the first
// witness that replays, or nil (the group is then dropped).
func (w *allWitnesses) build(k int) (*Outcome, error) { return w.buildFrom(k, 0) }

// buildFrom is build from finder src on.
func (w *allWitnesses) buildFrom(k, src int) (*Outcome, error) {
	g := w.groups[k]
	for ; src < nSources; src++ {
		if !g.has[src] {
			continue
		}
		out, ok, err := w.witnessOf(k, src)
		if err != nil {
			return nil, err
		}
		if ok {
			w.shown[k].Source = sourceNames[src]
			return out, nil
		}
	}
	w.shown[k].Dropped = true
	return nil, nil
}

// witnessOf plans and verifies the witness of group k's pattern of
// finder src.
func (w *allWitnesses) witnessOf(k, src int) (*Outcome, bool, error) {
	if src == srcAnswer {
		return w.groups[k].pats[src].answer, true, nil
	}
	pl, ok, engine, why, dropSync, err := w.planOf(k, src)
	if err != nil || !ok {
		return nil, false, err
	}
	return w.p.verified(pl, dropSync, engine, why)
}

// planOf is the plan of group k's pattern of finder src (not predict's answer, which
// is a witness already), with what its answer says: the engine, the
// reason, and whether the run drops the synchronisation; false when the
// plan cannot be made.
func (w *allWitnesses) planOf(k, src int) (pl proj.Plan, ok bool, engine, why string, dropSync bool, err error) {
	p, pat := w.p, &w.groups[k].pats[src]
	switch src {
	case srcScan:
		if sp, planned := w.scanPlans[k]; planned { // made ahead (all_locate.go)
			delete(w.scanPlans, k)
			return sp.pl, sp.ok, "profile", p.optimisticNote(), p.o.Check.IgnoreSync, nil
		}
		pl, ok, err = p.scanPlan(w.c, pat.scan)
		return pl, ok, "profile", p.optimisticNote(), p.o.Check.IgnoreSync, err
	case srcLock:
		pl, err = p.pairLockPlan(pat.lock)
		return pl, err == nil, "global", p.pairLockWhy(pat.lock), false, err
	case srcNested:
		pl, ok, err = p.nestPlan(pat.nested)
		return pl, ok, "global", nestedWhy(p, pat.nested), false, err
	}
	pl, ok, err = p.pairPlan(pat.hb)
	return pl, ok, "global", pair.HBNote, false, err
}

// scanPlan is Lemma 2's normal run for a pair the scan found (as
// lockFree plans it); false when its chain is not found again (the
// budget ran out).
func (p *predictor) scanPlan(c *chain.Chainer, pr chain.Interrupted) (proj.Plan, bool, error) {
	ls, ok, err := p.scanChain(c, pr)
	if err != nil || !ok {
		return proj.Plan{}, false, err
	}
	pl, err := c.Plan(p.sp, pr, ls)
	return pl, err == nil, err
}

// scanChain finds a pair's chain again, with its links' letters.
func (p *predictor) scanChain(c *chain.Chainer, pr chain.Interrupted) ([]chain.Link, bool, error) {
	// The scan may have spent the budget: each witness gets its own
	// allowance for finding its chain again.
	if c.Resume(); c.Limit > 0 {
		c.Limit = c.States + witnessChainStates
	}
	if c.Ctx.Err() != nil {
		// The deadline (or the memory budget) stopped the scan after it
		// found this pair: finding its chain again is bounded work (the
		// allowance), so it is done whatever the deadline, or the scan's
		// violation would be lost.
		ctx, limit := c.Ctx, c.Limit
		c.Ctx, c.Limit = context.WithoutCancel(ctx), c.States+witnessChainStates
		defer func() { c.Ctx, c.Limit = ctx, limit }()
	}
	hops, ok := c.ChainTo(pr.Thread, pr.A, pr.B)
	if !ok {
		return nil, false, nil
	}
	ls, err := c.Links(pr, hops)
	return ls, err == nil, err
}

// witnessChainStates bounds the chain states spent on finding one
// group's chain again (the scan found it within the budget).
const witnessChainStates = 200_000
