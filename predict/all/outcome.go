package all

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/internal/chain"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/predict/internal/sites"
	"github.com/conc-dev/conc/trace"
)

// Group is one group of predicted violations.
type Group struct {
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

// Outcome is conc predict --all's answer: the verdict (Result, without a
// witness), the groups in order of their first line, and their witnesses,
// built as they are asked for (Witness: the spool stays until Close).
type Outcome struct {
	predict.Outcome
	Groups []Group
	// Incomplete says why the groups may not be all (a budget or the
	// deadline cut a finder short), "" if they are.
	Incomplete string

	// Ahead, when positive, is how many groups' witnesses the caller will
	// ask for at most (the text's --max-groups): a batch builds no more.
	Ahead int

	w     *witnesses // builds the groups' witnesses (batch.go)
	close func() error
}

// Find predicts every group of violations of the trace (docs/predict.md,
// "Every group (--all)"). Without locks, fork and join (or with
// IgnoreSync) the lock-free scan is the verdict: violation when some
// group's witness replays, serializable when it finds nothing. With them,
// predict.Predict's own answer is the verdict (a serializable or unknown
// answer stands), and the finders (the scan's normal runs, the two-thread
// patterns) add the groups; an unknown answer becomes a violation if one
// of their witnesses replays.
func Find(ctx context.Context, r *trace.Reader, o predict.Options) (*Outcome, error) {
	start := time.Now()
	x, early, err := predict.Project(ctx, r, o)
	switch {
	case err != nil:
		return nil, err
	case x == nil: // the deadline came while reading, as predict answers
		return &Outcome{Outcome: *early, close: func() error { return nil }, w: newWitnesses(nil)}, nil
	}
	a := &Outcome{close: x.Close, w: newWitnesses(x)}
	locs := r.Locs().Names()
	if err := a.find(); err != nil {
		x.Close()
		return nil, err
	}
	a.sortGroups(locs)
	if err := a.settle(); err != nil {
		x.Close()
		return nil, err
	}
	x.Complete(&a.Outcome, start)
	return a, nil
}

// Close removes the spool; no witness can be built after it.
func (a *Outcome) Close() error { return a.close() }

// find runs the finders (and, unless the lock-free scan decides, as it
// does for predict when the engine is profile, Predict's own decision
// first).
func (a *Outcome) find() error {
	x, col := a.w.x, newCollector()
	defer func() { a.w.groups, a.w.misses = col.groups, col.misses }()
	name, err := x.Engine()
	if err != nil {
		return err
	}
	if name == "profile" {
		c, err := scanAll(x, col)
		a.w.c = c
		a.Result = engines.Result{Engine: "profile", Verdict: engines.Serializable}
		a.Result.Stats.States = c.States
		if c.Stop != "" {
			a.Result.Verdict, a.Result.Reason, a.Result.Limit, a.Incomplete = engines.Unknown, c.Stop, c.StopBy, c.Stop
		}
		if len(col.groups) > 0 {
			a.Result.Verdict, a.Result.Reason, a.Result.Limit = engines.Violation, x.OptimisticNote(), engines.NoLimit
			if c.Stop != "" {
				a.Incomplete = x.StoppedAt(c)
			}
		}
		return err
	}
	out, err := x.Decide()
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
	if e := x.Options().Engine; e != "" && e != "auto" {
		return nil // the named engine answers alone, as in predict
	}
	return a.runFinders(col)
}

// runFinders adds the groups of the two-thread patterns (the lock-free
// scan's normal runs ignore the synchronisation: most would fail the
// verification).
func (a *Outcome) runFinders(col *collector) error {
	x := a.w.x
	if !x.DenseClocks() {
		a.Incomplete = predict.ManyThreadsNote
		return nil
	}
	for _, find := range []func(*predict.Projection, *collector) (bool, error){pairsLocked, pairsHB, nestedAll} {
		done, err := find(x, col)
		if err != nil {
			return err
		}
		if !done {
			a.Incomplete = chain.StopNote(x.Context())
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
func (a *Outcome) addAnswer(col *collector, out *predict.Outcome) error {
	w := out.Result.Witness
	if out.Result.Verdict != engines.Violation || w == nil || len(w.Cycle) == 0 {
		return nil
	}
	e1, e2 := w.Run[w.Cycle[0].From], w.Run[w.Cycle[len(w.Cycle)-1].To]
	l1, l2 := int64(e1.Ev.Pos.Line), int64(e2.Ev.Pos.Line)
	at, err := sites.At(a.w.x.Spool(), l1, l2)
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
func (a *Outcome) sortGroups(locs []string) {
	groups := a.w.groups
	slices.SortStableFunc(groups, func(x, y *tally) int { return cmp.Compare(x.first, y.first) })
	s := a.w.x.Summary()
	a.Groups = make([]Group, len(groups))
	for k, g := range groups {
		ag := Group{Signature: sites.Text(s, g.sites[0], locs) + " " + sites.Text(s, g.sites[1], locs),
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
func (a *Outcome) settle() error {
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
	ctx := a.w.x.Context()
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
// built by Find) with the next groups' in the same batch (batch.go);
// nil when the group is dropped (no finder's witness replays). A witness
// is handed out once: the batch lets it go.
func (a *Outcome) Witness(k int) (*predict.Outcome, error) { return a.w.witness(k, a.Ahead) }

// Schedule is group k's witness's schedule (out being that witness):
// computed with the witness by its batch, or now.
func (a *Outcome) Schedule(k int, out *predict.Outcome) Schedule { return a.w.schedule(k, out) }

// Built reports that group k's witness costs nothing more: it is the
// first one Find built, a batch built it, or the group is dropped.
func (a *Outcome) Built(k int) bool { return a.w.built(k) }

// Dropped counts the groups whose witnesses were tried and all failed.
func (a *Outcome) Dropped() int {
	n := 0
	for _, g := range a.Groups {
		if g.Dropped {
			n++
		}
	}
	return n
}
